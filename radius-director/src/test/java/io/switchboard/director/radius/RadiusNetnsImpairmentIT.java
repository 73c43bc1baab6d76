package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.testing.ImpairedNetns;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The RADIUS director over a bad network made in the kernel (issue 22 point 3): {@code radclient}
 * (the NAS, retransmitting the same packet every second up to four times, RFC 2865 §2.5 leaves that
 * to the client) in a network namespace of its own, two real FreeRADIUS servers in another, the
 * director in the test's JVM between them, and on all four egresses of the two links the same rate of
 * loss, duplication and reordering, 1 % and 5 % ({@link ImpairedNetns}). Each subscriber
 * authenticates and starts accounting; every other one stops it.
 *
 * <p>What must hold, read from the servers' own logs and detail files: all of a subscriber's requests
 * are handled by one server; a login that the network duplicated or the NAS retransmitted is logged
 * once (a retransmission of a pending request goes to the same real under the same identifier, the
 * same bytes, and FreeRADIUS recognises the duplicate; one already answered is answered from the
 * director's response cache, RFC 5080 §2.2.2); every answered Start and Stop is recorded. Accounting
 * is at least once: FreeRADIUS 3.2 writes an Accounting-Request again each time it receives it, even
 * unchanged, so a record written twice is allowed where the director resent a pending request whose
 * answer the network had lost, or the network duplicated what the director sent (no more of them than
 * such resends and copies), never for an answered one. At the
 * end the director holds a Framed-IP binding exactly for the sessions the servers hold open (Start
 * recorded, no Stop), wherever the NAS got its answers. What the links did is printed from the nft
 * counters. Skipped, with the reason, without root or the tools.
 */
class RadiusNetnsImpairmentIT {

    private static final String CLIENT_SECRET = "nas-to-director";
    private static final String[] REAL_SECRETS = {"director-to-aaa1", "director-to-aaa2"};
    /** Enough datagrams (some 1,300 over the four egresses) that 1 % of them is sure to be more than none. */
    private static final int SUBSCRIBERS = 100;
    /** radclient: a second per try, five tries (-t 1 -r 5 -p 20). */
    private static final String[] NAS = {"-t", "1", "-r", "5", "-p", "20"};

    @TempDir
    Path work;

    private ImpairedNetns net;
    private final List<Process> servers = new ArrayList<>();
    private Director director;
    private Vertx vertx;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void available() throws Exception {
        Optional<String> missing = ImpairedNetns.unavailable();
        Assumptions.assumeTrue(missing.isEmpty(), missing.orElse(""));
        for (String tool : List.of("freeradius", "radclient")) {
            Assumptions.assumeTrue(new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() == 0,
                    tool + " is not installed (.ci/run installs freeradius and freeradius-utils)");
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            if (director != null) {
                director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            for (Process p : servers) {
                FreeRadiusProcess.stop(p);
            }
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    @ParameterizedTest(name = "{0} per mille loss, duplication and reordering")
    @ValueSource(ints = {10, 50})
    void eachRequestIsHandledOnceByOneServerAndTheSessionsAgreeThroughKernelImpairment(int perMille)
            throws Exception {
        net = ImpairedNetns.up(work, perMille, perMille, perMille);
        ImpairedNetns.Probe probe = net.probe();
        System.out.printf("radius impairment %d‰: probe of 1000 datagrams: %d received, %d duplicates, %d late%n",
                perMille, probe.received(), probe.duplicates(), probe.late());
        assertThat(probe.duplicates()).as("the probe's duplicates").isPositive();
        assertThat(probe.late()).as("the probe's datagrams overtaken by later ones").isPositive();

        Path[] dirs = new Path[2];
        List<RealConfig> auth = new ArrayList<>();
        List<RealConfig> acct = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            dirs[i] = work.resolve("aaa" + (i + 1));
            String address = net.real(i).getHostAddress();
            // The well-known ports: the namespace is this test's alone. Clients: the director's side of the links.
            FreeRadiusProcess.run(work, List.of("bash", FreeRadiusIT.script().toString(), dirs[i].toString(),
                    "aaa" + (i + 1), address, "1812", "1813", REAL_SECRETS[i], "10.96.0.0/15"), 60);
            servers.add(FreeRadiusProcess.start(dirs[i], List.of("ip", "netns", "exec", net.realNamespace())));
            auth.add(new RealConfig(net.real(i), 1812, 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
            acct.add(new RealConfig(net.real(i), 1813, 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
        }
        // In-band failure detection off in effect: lost answers must not fail the servers here.
        FailureDetection failure = new FailureDetection(1_000_000, 1_000, Duration.ofMinutes(1));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa-auth", new FarmConfig("aaa-auth", PredictorKind.ROUNDROBIN, failure, auth, Optional.empty(),
                List.of()));
        farms.put("aaa-acct", new FarmConfig("aaa-acct", PredictorKind.ROUNDROBIN, failure, acct, Optional.empty(),
                List.of()));
        // One group: a subscriber's accounting goes where it authenticated.
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                OptionalInt.empty(), 100_000, Optional.of("subscribers"));
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(net.client(), 32, CLIENT_SECRET)));
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        // The response timeout spans the NAS's five tries: a retransmission finds its request pending.
        for (String vs : List.of("auth", "acct")) {
            vservers.put("radius-" + vs, new VirtualServerConfig("radius-" + vs,
                    new Endpoint(net.directorClientSide(), 0), "radius", "aaa-" + vs, Optional.of(sticky),
                    Duration.ofSeconds(6), Duration.ofMinutes(1), 4096, true, options));
        }
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

        long began = System.nanoTime();
        List<String> access = new ArrayList<>();
        List<String> starts = new ArrayList<>();
        List<String> stops = new ArrayList<>();
        for (int n = 0; n < SUBSCRIBERS; n++) {
            access.add(FreeRadiusIT.access("user" + n, csid(n)));
            starts.add(FreeRadiusIT.accounting("Start", "user" + n, csid(n), framedIp(n), session(n)));
            if (n % 2 == 0) {
                stops.add(FreeRadiusIT.accounting("Stop", "user" + n, csid(n), framedIp(n), session(n)));
            }
        }
        Exchanges logins = radclient("radius-auth", "auth", access, "Calling-Station-Id");
        Exchanges started = radclient("radius-acct", "acct", starts, "Acct-Session-Id");
        Exchanges stopped = radclient("radius-acct", "acct", stops, "Acct-Session-Id");
        long tookMs = (System.nanoTime() - began) / 1_000_000;

        // What the servers handled: logins by Calling-Station-Id, Starts and Stops by session.
        Map<String, int[]> loginsAt = loginsByCsid(dirs);
        Map<String, int[]> startsAt = new HashMap<>();
        Map<String, int[]> stopsAt = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            for (String record : detail(dirs[i]).split("\n\\s*\n")) {
                Matcher m = Pattern.compile("Acct-Session-Id = \"([^\"]+)\"").matcher(record);
                if (!m.find()) {
                    continue;
                }
                Map<String, int[]> into = record.contains("Acct-Status-Type = Start") ? startsAt
                        : record.contains("Acct-Status-Type = Stop") ? stopsAt : null;
                if (into != null) {
                    into.computeIfAbsent(m.group(1), k -> new int[2])[i]++;
                }
            }
        }
        StickyTable bindings = director.virtualServers().get("radius-acct").selector().sticky();
        int open = 0;
        int bound = 0;
        int repeated = 0;
        int distinct = 0;
        for (int n = 0; n < SUBSCRIBERS; n++) {
            int n0 = n;
            int[] login = loginsAt.getOrDefault(csid(n), new int[2]);
            int[] start = startsAt.getOrDefault(session(n), new int[2]);
            int[] stop = stopsAt.getOrDefault(session(n), new int[2]);
            assertThat(login[0] + login[1]).as("logins of %s at the servers", csid(n)).isLessThanOrEqualTo(1);
            if (logins.answered.contains(csid(n))) {
                assertThat(login[0] + login[1]).as("answered login of %s", csid(n)).isEqualTo(1);
            }
            if (started.answered.contains(session(n))) {
                assertThat(start[0] + start[1]).as("answered Start of %s recorded", session(n)).isPositive();
            }
            if (stopped.answered.contains(session(n))) {
                assertThat(stop[0] + stop[1]).as("answered Stop of %s recorded", session(n)).isPositive();
            }
            // FreeRADIUS writes an Accounting-Request again whenever it receives it again, even unchanged
            // (it keeps no answered accounting for duplicates: RFC 2866 §5.2 has a NAS change
            // Acct-Delay-Time, so a retransmission is a new request). A record twice is a request the
            // director resent to the same real while it waited for an answer the network lost.
            repeated += Math.max(0, start[0] + start[1] - 1) + Math.max(0, stop[0] + stop[1] - 1);
            distinct += Math.min(1, start[0] + start[1]) + Math.min(1, stop[0] + stop[1]);
            // All of a subscriber's on one server.
            int[] all = {login[0] + start[0] + stop[0], login[1] + start[1] + stop[1]};
            String s = session(n);
            assertThat(all[0] == 0 || all[1] == 0).as(() -> csid(n0) + " handled by aaa1, aaa2: " + Arrays.toString(all)
                    + records(dirs, s)).isTrue();
            boolean openAtServer = start[0] + start[1] >= 1 && stop[0] + stop[1] == 0;
            boolean boundAtDirector = bindings.lookup(StickyKey.parse(RadiusModule.FRAMED_IP, framedIp(n)),
                    System.nanoTime()) != null;
            // Where the NAS got an answer to each of the subscriber's accounting requests, the director and
            // the servers agree on whether the session is open (an exchange that failed five times may have
            // ended on either side of the director: the NAS knows it failed).
            boolean settled = started.answered.contains(session(n)) && (n % 2 != 0 || stopped.answered.contains(session(n)));
            if (settled) {
                assertThat(boundAtDirector).as("Framed-IP of %s bound at the director (open at a server: %s)",
                        session(n), openAtServer).isEqualTo(openAtServer);
            }
            open += openAtServer ? 1 : 0;
            bound += boundAtDirector ? 1 : 0;
        }
        double resent = director.virtualServers().get("radius-acct").metrics().retransmittedCount();
        double forwarded = director.virtualServers().get("radius-acct").metrics().forwardedCount();
        Map<String, ImpairedNetns.Counts> links = net.counters();
        System.out.printf("radius impairment %d‰: accounting: director forwarded %.0f requests once each and resent %.0f"
                + " retransmissions of pending ones to the same real; the servers recorded %d distinct, %d again%n",
                perMille, forwarded, resent, distinct, repeated);
        // Each record written again needs a second copy at the server: the director's resend of a pending
        // request, or the network's duplicate of what the director sent (held in the slow lane until the
        // server had answered the first).
        long copiedOnTheWay = links.get("director->r").duplicated();
        assertThat(repeated).as("accounting records written again (resends %s, copies on the way %s)", resent,
                copiedOnTheWay).isLessThanOrEqualTo((int) resent + (int) copiedOnTheWay);
        assertThat(distinct).as("distinct accounting records (at most one per request forwarded)")
                .isLessThanOrEqualTo((int) forwarded);
        System.out.printf("radius impairment %d‰ (%d ms): NAS sent %d logins %d Starts %d Stops (%d retransmissions),"
                        + " answered %d, %d, %d; servers logged %d logins, %d Starts, %d Stops; director: %.0f answered"
                        + " from its response cache, %.0f retransmissions of pending requests; sessions open at the"
                        + " servers %d, Framed-IP bindings at the director %d; links (lost/duplicated/delayed/passed):"
                        + " %s%n", perMille, tookMs, access.size(), starts.size(), stops.size(),
                logins.retransmissions + started.retransmissions + stopped.retransmissions, logins.answered.size(),
                started.answered.size(), stopped.answered.size(), total(loginsAt), total(startsAt), total(stopsAt),
                count("switchboard.radius.duplicates"), count("switchboard.requests.retransmitted"), open, bound,
                links);
        // That the impairment happened: at 1 % a link may by chance lose or copy nothing in a run of some
        // 800 datagrams (e^-8), so each kind is asserted at 5 % only, their sum at both rates.
        long lost = links.values().stream().mapToLong(ImpairedNetns.Counts::lost).sum();
        long duplicated = links.values().stream().mapToLong(ImpairedNetns.Counts::duplicated).sum();
        long delayed = links.values().stream().mapToLong(ImpairedNetns.Counts::delayed).sum();
        assertThat(lost + duplicated + delayed).as("datagrams lost, duplicated or delayed").isPositive();
        if (perMille >= 50) {
            assertThat(lost).as("datagrams lost").isPositive();
            assertThat(duplicated).as("duplicated").isPositive();
            assertThat(delayed).as("delayed").isPositive();
        }
        assertThat(logins.retransmissions + started.retransmissions + stopped.retransmissions)
                .as("the NAS's retransmissions").isPositive();
        assertThat(logins.answered.size() + started.answered.size() + stopped.answered.size())
                .as("exchanges answered (the rest failed five times)").isGreaterThan((SUBSCRIBERS * 5 / 2) * 9 / 10);
    }

    /** What radclient sent and got: the keys whose request was answered, and how often it sent again. */
    private record Exchanges(Set<String> answered, int retransmissions) {
    }

    private static final Pattern SENT = Pattern.compile("^Sent \\S+ Id (\\d+) ");
    private static final Pattern RECEIVED = Pattern.compile("^Received \\S+ Id (\\d+) ");

    /** radclient in the client's namespace, the requests at most 20 at a time; {@code key} names each request. */
    private Exchanges radclient(String vs, String type, List<String> requests, String key) throws Exception {
        Path file = Files.createTempFile(work, "requests", ".txt");
        Files.writeString(file, String.join("\n\n", requests) + "\n");
        InetSocketAddress vip = director.localAddress(vs);
        List<String> command = new ArrayList<>(List.of("radclient", "-x"));
        command.addAll(List.of(NAS));
        command.addAll(List.of("-f", file.toString(), vip.getAddress().getHostAddress() + ":" + vip.getPort(), type,
                CLIENT_SECRET));
        String out = FreeRadiusProcess.run(work, ImpairedNetns.in(net.clientNamespace(), command), 120).output();
        // radclient numbers each request once (Id) and sends it again under that Id; <256 requests per run.
        Map<String, String> keyById = new HashMap<>();
        Set<String> answered = new TreeSet<>();
        int sent = 0;
        String id = null;
        Pattern attribute = Pattern.compile("^\\s+" + key + " = \"([^\"]+)\"");
        for (String line : out.split("\n")) {
            Matcher s = SENT.matcher(line);
            Matcher r = RECEIVED.matcher(line);
            Matcher a = attribute.matcher(line);
            if (s.find()) {
                id = s.group(1);
                sent++;
            } else if (r.find()) {
                id = null;
                String answeredKey = keyById.get(r.group(1));
                if (answeredKey != null) {
                    answered.add(answeredKey);
                }
            } else if (a.find() && id != null) {
                keyById.put(id, a.group(1));
            }
        }
        return new Exchanges(answered, sent - requests.size());
    }

    private double count(String meter) {
        return registry.find(meter).counters().stream().mapToDouble(Counter::count).sum();
    }

    private static int total(Map<String, int[]> counts) {
        return counts.values().stream().mapToInt(c -> c[0] + c[1]).sum();
    }

    private static final Pattern LOGIN = Pattern.compile("Login OK: \\[([^\\]]*)\\] .* cli (\\S+)\\)");

    private static Map<String, int[]> loginsByCsid(Path[] dirs) throws Exception {
        Map<String, int[]> logins = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            for (String line : Files.readAllLines(dirs[i].resolve("log").resolve("radius.log"))) {
                Matcher m = LOGIN.matcher(line);
                if (m.find()) {
                    logins.computeIfAbsent(m.group(2), k -> new int[2])[i]++;
                }
            }
        }
        return logins;
    }

    /** The detail records of {@code session} at each server, for a failure's message. */
    private static String records(Path[] dirs, String session) {
        StringBuilder out = new StringBuilder();
        try {
            for (int i = 0; i < 2; i++) {
                for (String record : detail(dirs[i]).split("\n\\s*\n")) {
                    if (record.contains("\"" + session + "\"")) {
                        out.append("\naaa").append(i + 1).append(":\n").append(record.strip());
                    }
                }
            }
        } catch (Exception e) {
            out.append(" (").append(e).append(')');
        }
        return out.toString();
    }

    private static String detail(Path dir) throws Exception {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir.resolve("log").resolve("radacct"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                text.append(Files.readString(f)).append("\n\n");
            }
        }
        return text.toString();
    }

    private static String csid(int n) {
        return String.format("49152%08d", n);
    }

    private static String session(int n) {
        return "netem-session-" + n;
    }

    private static String framedIp(int n) {
        return "10.77.0." + (n + 1);
    }
}
