package io.switchboard.director.gtp.demo;

import io.switchboard.codec.gtp.v2.GtpV2Cause;
import io.switchboard.director.gtp.GtpInspectService;
import io.switchboard.director.gtp.GtpModule;
import io.switchboard.director.real.RealState;
import io.switchboard.director.spi.DemoDirector;
import io.switchboard.director.spi.DemoScenario;
import io.switchboard.director.sticky.StickyKey;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code switchboard demo --service gtp-inspect}: a {@code gtp-inspect} virtual server on loopback in
 * front of two SIMULATED PGWs ({@link SimulatedPgw}), driven by a SIMULATED SGW ({@link SimulatedSgw})
 * over GTPv2-C. It shows creates spread by weight and each IMSI's PDN connections kept on one PGW, a
 * PGW that runs out of resources failed and its refused create resent to the other (the SGW sees one
 * accepted answer), and Delete Session Requests that reach the PGW holding each session through the
 * director's address and TEIDs, after which no session and no binding is left.
 */
public final class GtpDemo implements DemoScenario {

    static final String FARM = "pgw";
    static final String VSERVER = "gtp-c";
    private static final Duration ASK = Duration.ofSeconds(2);

    @Override
    public String service() {
        return new GtpInspectService().spec().name();
    }

    @Override
    public String title() {
        return "a gtp-inspect virtual server in front of two SIMULATED PGWs, driven by a SIMULATED SGW over"
                + " GTPv2-C (S5/S8)";
    }

    @Override
    public Optional<String> metricsPrefix() {
        return Optional.of("switchboard_gtp");
    }

    /** {@code clients} is the number of subscribers that attach in phase 1. */
    @Override
    public Run start(int clients) throws IOException {
        return new GtpRun(service(), clients);
    }

    /** The PGWs, the SGW once the director is up, and what the phases saw. */
    private static final class GtpRun implements Run {

        private final String service;
        private final int subscribers;
        private final List<SimulatedPgw> pgws = new ArrayList<>();
        private final List<SimulatedSgw.Session> sessions = new ArrayList<>();
        private SimulatedSgw sgw;
        private DemoDirector director;
        private PrintWriter out;
        private int unanswered;
        private int extraAnswers;

        GtpRun(String service, int subscribers) throws IOException {
            this.service = service;
            this.subscribers = subscribers;
            Inet4Address loopback = (Inet4Address) InetAddress.getByName("127.0.0.1");
            try {
                for (String name : List.of("pgw-a", "pgw-b")) {
                    pgws.add(new SimulatedPgw(name, loopback));
                }
            } catch (IOException e) {
                close();
                throw e;
            }
        }

        @Override
        public String configuration(int adminPort) {
            int[] weights = {2, 1};
            StringBuilder reals = new StringBuilder();
            for (int i = 0; i < pgws.size(); i++) {
                reals.append(DemoScenario.realLine(pgws.get(i).address().getPort(), weights[i % weights.length],
                        pgws.get(i).name()));
            }
            return """
                    admin: { listen: 127.0.0.1:%d }
                    farms:
                      %s:
                        predictor: roundrobin
                        failure: { retry: 30s }
                        reals:
                    %s
                    virtual-servers:
                      %s:
                        listen: 127.0.0.1:0
                        service: %s
                        farm: %s
                        sticky: { key: imsi, idle: 1h }
                        response-timeout: 1s
                        gtp:
                          versions: [2]
                          reassign: 1
                          resource-causes: { v2: [72, 73, 84, 91] }
                    """.formatted(adminPort, FARM, reals.toString().stripTrailing(), VSERVER, service, FARM);
        }

        @Override
        public boolean play(DemoDirector director, PrintWriter out) throws IOException {
            this.director = director;
            this.out = out;
            InetSocketAddress vip = director.address();
            sgw = new SimulatedSgw((Inet4Address) InetAddress.getByName("127.0.0.20"), vip, ASK);
            List<String> attached = new ArrayList<>();
            for (int i = 1; i <= subscribers; i++) {
                attached.add(imsi(i));
            }
            boolean sticky = attach(vip, attached);
            List<String> late = new ArrayList<>();
            boolean failedOver = runOutOfResources(late);
            List<String> everyone = new ArrayList<>(attached);
            everyone.addAll(late);
            boolean cleared = detach(everyone);
            boolean answeredOnce = unanswered == 0 && extraAnswers == 0;
            boolean ok = sticky && failedOver && cleared && answeredOnce;
            out.println(ok ? "Demo OK: each IMSI stayed on one PGW, the refused create was answered once by the other"
                    + " PGW, and every Delete reached the PGW that held the session."
                    : "Demo FAILED: onePgwPerImsiAndDirectorAddressed=" + sticky + " failedOver=" + failedOver
                    + " nothingLeftAfterDeletes=" + cleared + " unanswered=" + unanswered + " extraAnswers="
                    + extraAnswers);
            out.flush();
            return ok;
        }

        /**
         * Phase 1: each subscriber opens two PDN connections; true if each IMSI's are on one PGW and
         * every answer names the director.
         */
        private boolean attach(InetSocketAddress vip, List<String> imsis) throws IOException {
            out.printf("Phase 1: %d subscribers attach (PDN connection to APN internet, EBI 5), then each opens a"
                    + " second one (APN ims, EBI 6).%n", imsis.size());
            for (String imsi : imsis) {
                create(imsi, "internet", 5);
            }
            for (String imsi : imsis) {
                create(imsi, "ims", 6);
            }
            printPgws("after phase 1");
            Map<String, String> holders = printSubscribers(imsis);
            boolean onePgwEach = holders.values().stream().noneMatch(h -> h.contains(",") || h.equals("-"));
            boolean addressed = sessions.stream().allMatch(s -> s.accepted() && s.peer() != null
                    && vip.getAddress().equals(s.peer().ipv4()));
            out.printf("Weighted round robin (weights 2/1) gives new subscribers to pgw-a, pgw-a, pgw-b, then again;"
                    + " each IMSI's second PDN connection follows its binding. Every answer names the director's"
                    + " address (%s) as the PGW's control plane: %s.%n%n", vip.getAddress().getHostAddress(),
                    addressed ? "yes" : "NO");
            return onePgwEach && addressed;
        }

        /**
         * Phase 2: pgw-b refuses creates; new subscribers (added to {@code late}) attach until it has refused
         * one. True if that create was answered, once, by pgw-a and pgw-b is failed.
         */
        private boolean runOutOfResources(List<String> late) throws IOException {
            SimulatedPgw b = pgws.get(1);
            out.println("Phase 2: pgw-b runs out of resources (answers cause 73, No resources available). New"
                    + " subscribers attach until one of them is given to pgw-b: its create is refused, pgw-b is failed"
                    + " and the same request goes to pgw-a; the SGW sees only pgw-a's accepted answer.");
            b.outOfResources(true);
            SimulatedSgw.Session reassigned = null;
            for (int i = subscribers + 1; i <= subscribers + 6 && reassigned == null; i++) {
                int refusedBefore = b.refused();
                SimulatedSgw.Session s = create(imsi(i), "internet", 5);
                late.add(s.imsi());
                if (b.refused() > refusedBefore) {
                    reassigned = s;
                }
            }
            printPgws("after phase 2");
            Map<String, String> holders = printSubscribers(late);
            if (reassigned == null) {
                out.println("pgw-b was not given a new subscriber.");
                return false;
            }
            RealState stateOfB = real(b).state();
            out.printf("%s's create was refused by pgw-b (cause %d) and answered by pgw-a (cause %d); pgw-b is %s"
                    + " until its retry timer (30 s) runs out.%n%n", reassigned.imsi(),
                    GtpV2Cause.NO_RESOURCES_AVAILABLE.value(), reassigned.cause(), stateOfB);
            return reassigned.accepted() && stateOfB == RealState.FAILED
                    && "pgw-a".equals(holders.get(reassigned.imsi()));
        }

        /** Phase 3: every accepted session deleted; true if all were and no context, session or binding is left. */
        private boolean detach(List<String> imsis) throws IOException {
            out.println("Phase 3: the SGW deletes every session (Delete Session Request to the address and TEID each"
                    + " answer named, i.e. the director's); each reaches the PGW that holds it, pgw-b included.");
            int deleted = 0;
            for (SimulatedSgw.Session s : sessions) {
                if (s.accepted() && sgw.delete(s) == GtpV2Cause.REQUEST_ACCEPTED.value()) {
                    deleted++;
                }
            }
            printPgws("after phase 3");
            int left = pgws.stream().mapToInt(p -> p.contexts().size()).sum();
            int open = director.reals().stream().mapToInt(DemoDirector.Real::connections).sum();
            long bound = imsis.stream().filter(i -> binding(i).isPresent()).count();
            long accepted = sessions.stream().filter(SimulatedSgw.Session::accepted).count();
            out.printf("%nDeleted %d of %d sessions; contexts left at the PGWs: %d; sessions the director counts: %d;"
                    + " IMSI bindings left: %d.%n", deleted, accepted, left, open, bound);
            printCounters();
            return deleted == accepted && left == 0 && open == 0 && bound == 0;
        }

        /** One create, kept with its outcome; counts a missing answer and any answer beyond the first. */
        private SimulatedSgw.Session create(String imsi, String apn, int ebi) throws IOException {
            SimulatedSgw.Session s = sgw.create(imsi, apn, ebi);
            unanswered += s.answers() == 0 ? 1 : 0;
            extraAnswers += Math.max(0, s.answers() - 1);
            sessions.add(s);
            return s;
        }

        /** Test IMSIs of the test network (MCC 001, MNC 01). */
        private static String imsi(int i) {
            return "00101" + String.format("%010d", i);
        }

        private DemoDirector.Real real(SimulatedPgw pgw) {
            String id = "127.0.0.1:" + pgw.address().getPort();
            return director.reals().stream().filter(r -> r.id().equals(id)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no real " + id + " in farm " + FARM));
        }

        private String pgwName(String realId) {
            for (SimulatedPgw pgw : pgws) {
                if (real(pgw).id().equals(realId)) {
                    return pgw.name();
                }
            }
            return realId;
        }

        private Optional<String> binding(String imsi) {
            return director.boundReal(StickyKey.of(GtpModule.IMSI, imsi.getBytes(StandardCharsets.US_ASCII)));
        }

        private void printPgws(String when) {
            out.printf("%nPGWs %s (simulated; \"sessions\" is what the director counts open on that real):%n", when);
            String format = "  %-6s %-16s %6s %-12s %8s %8s %8s %8s %8s%n";
            out.printf(format, "pgw", "real", "weight", "state", "creates", "refused", "deletes", "contexts", "sessions");
            for (SimulatedPgw pgw : pgws) {
                DemoDirector.Real real = real(pgw);
                out.printf(format, pgw.name(), real.id(), real.weight(), real.state(), pgw.creates(), pgw.refused(),
                        pgw.deletes(), pgw.contexts().size(), real.connections());
            }
        }

        /** Prints, per IMSI, the PGW(s) holding its contexts and the director's binding; returns the former. */
        private Map<String, String> printSubscribers(List<String> imsis) {
            Map<String, String> holders = new LinkedHashMap<>();
            out.printf("%nSubscribers:%n");
            String format = "  %-16s %-22s %-12s %s%n";
            out.printf(format, "IMSI", "PDN connections", "held by", "director's binding (sticky imsi)");
            for (String imsi : imsis) {
                Set<String> at = new TreeSet<>();
                List<String> apns = new ArrayList<>();
                for (SimulatedPgw pgw : pgws) {
                    for (SimulatedPgw.Context c : pgw.contexts().values()) {
                        if (c.imsi().equals(imsi)) {
                            at.add(pgw.name());
                            apns.add(c.apn() + "/" + c.ebi());
                        }
                    }
                }
                String held = at.isEmpty() ? "-" : String.join(",", at);
                holders.put(imsi, held);
                out.printf(format, imsi, String.join(" ", apns), held, binding(imsi).map(this::pgwName).orElse("-"));
            }
            return holders;
        }

        private void printCounters() {
            DemoDirector.Counters c = director.counters();
            out.printf("%nCounters of virtual server %s:%n", director.virtualServer());
            out.printf("  received %d, forwarded %d, answers relayed %d, reassigned %d, requests expired %d%n",
                    c.received(), c.forwarded(), c.relayed(), c.reassigned(), c.expired());
            out.printf("  (per message type and cause: switchboard_gtp_messages_total on /metrics)%n%n");
        }

        @Override
        public void close() {
            if (sgw != null) {
                sgw.close();
            }
            pgws.forEach(SimulatedPgw::close);
        }
    }
}
