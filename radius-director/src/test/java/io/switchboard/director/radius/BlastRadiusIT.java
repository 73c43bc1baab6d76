package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.radius.RadiusOptions.Tristate;
import io.switchboard.director.testing.PcapFile;
import io.switchboard.director.testing.Tshark;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The BlastRADIUS defences and the response cache against real peers: two FreeRADIUS servers as AAA
 * (Debian's 3.2.1: one with {@code require_message_authenticator = yes} for the director, one with
 * {@code no}; its {@code limit_proxy_state} came with 3.2.5, so the director's own is what is tested
 * here), radclient (which verifies every answer's authenticators) and a NAS of our own as clients,
 * and a small real stand-in ({@link RadiusDirectorIT.Responder}) that answers without a
 * Message-Authenticator, as a server from before 2024 does. Every Access-* answer the NAS receives
 * is checked to carry a Message-Authenticator first whose HMAC this test computes itself, and, as
 * tshark decodes them, to carry it first.
 *
 * <p>Virtual servers (client 127.0.0.1 each): {@code strict} (require true, limit true) in front of
 * the AAA that requires one; {@code limited} (require false, limit true) and {@code lenient} (both
 * false) in front of the AAA that does not; {@code stand-in} (defaults) in front of the stand-in,
 * whose {@code require-message-authenticator} is true.
 */
class BlastRadiusIT {

    static final String CLIENT_SECRET = "nas-to-director";
    static final String[] REAL_SECRETS = {"director-to-strict-aaa", "director-to-lenient-aaa"};
    static final String[] ADDRESSES = {"127.0.0.2", "127.0.0.3"};
    static final String[] REQUIRE = {"yes", "no"};
    static final String STAND_IN_SECRET = "director-to-stand-in";

    @TempDir
    static Path work;

    static final Process[] servers = new Process[2];
    static final Path[] dirs = new Path[2];
    static RadiusDirectorIT.Responder standIn;
    static Vertx vertx;
    static Director director;
    static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        List<RealConfig> aaa = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            int auth = FreeRadiusIT.freePort(ADDRESSES[i]);
            int acct = FreeRadiusIT.freePort(ADDRESSES[i]);
            dirs[i] = work.resolve("aaa" + i);
            run(List.of("bash", FreeRadiusIT.script().toString(), dirs[i].toString(), "aaa" + i, ADDRESSES[i],
                    String.valueOf(auth), String.valueOf(acct), REAL_SECRETS[i], "127.0.0.0/8", REQUIRE[i]));
            servers[i] = FreeRadiusProcess.start(dirs[i]);
            aaa.add(new RealConfig(InetAddress.getByName(ADDRESSES[i]), auth, 1, OptionalInt.empty(), true)
                    .with(RadiusModule.SECRET, REAL_SECRETS[i]));
        }
        standIn = new RadiusDirectorIT.Responder("127.0.0.4", STAND_IN_SECRET);
        FailureDetection failure = new FailureDetection(100_000, 1, Duration.ofMinutes(1));
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("strict-aaa", farm("strict-aaa", failure, aaa.get(0)));
        farms.put("lenient-aaa", farm("lenient-aaa", failure, aaa.get(1)));
        farms.put("stand-in", farm("stand-in", failure,
                standIn.real().with(RadiusModule.REQUIRE_MESSAGE_AUTHENTICATOR, Tristate.ON)));
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("strict", vserver("strict", "strict-aaa", Tristate.ON, Tristate.ON));
        vservers.put("limited", vserver("limited", "lenient-aaa", Tristate.OFF, Tristate.ON));
        vservers.put("lenient", vserver("lenient", "lenient-aaa", Tristate.OFF, Tristate.OFF));
        vservers.put("stand-in", vserver("stand-in", "stand-in", RadiusOptions.DEFAULT_REQUIRE,
                RadiusOptions.DEFAULT_LIMIT_PROXY_STATE));
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), registry, Ticker.SYSTEM);
        // Native transport: answers arrive as recvmmsg slices, which cannot grow by the 18 octets.
        vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static FarmConfig farm(String name, FailureDetection failure, RealConfig real) {
        return new FarmConfig(name, PredictorKind.ROUNDROBIN, failure, List.of(real), Optional.empty());
    }

    private static VirtualServerConfig vserver(String name, String farm, Tristate require, Tristate limit)
            throws IOException {
        RadiusOptions options = new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"),
                32, CLIENT_SECRET, require, limit)));
        return new VirtualServerConfig(name, new Endpoint(InetAddress.getByName("127.0.0.10"), 0), "radius", farm,
                Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        for (Process p : servers) {
            FreeRadiusProcess.stop(p);
        }
        if (standIn != null) {
            standIn.close();
        }
    }

    @Test
    void anAaaThatRequiresOneGetsTheNassMessageAuthenticatorReSignedAndTheNasAnAnswerSignedFirst() throws Exception {
        FreeRadiusProcess.Result ok = radclient("strict", access("strict-1", true));
        assertThat(ok.exit()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("Received Access-Accept").contains("served by aaa0");
        fromOwnNas("strict", access("strict-2", true));
        // Without one, the director drops it (require-message-authenticator: true): the AAA never sees it.
        FreeRadiusProcess.Result unsigned = radclient("strict", access("strict-3", false), "-t", "1", "-r", "1");
        assertThat(unsigned.exit()).isNotZero();
        assertThat(metrics("strict").droppedCount(MessageAuthenticatorPolicy.MISSING)).isGreaterThanOrEqualTo(1);
        assertThat(Files.readString(dirs[0].resolve("log").resolve("radius.log"))).doesNotContain("strict-3");
    }

    @Test
    void limitProxyStateDropsAnUnsignedRequestWithProxyStateAndLetsTheRestThrough() throws Exception {
        FreeRadiusProcess.Result proxied = radclient("limited", access("limited-1", false) + "\nProxy-State = 0x6576696c",
                "-t", "1", "-r", "1");
        assertThat(proxied.exit()).isNotZero();
        assertThat(metrics("limited").droppedCount(MessageAuthenticatorPolicy.UNSIGNED_PROXY_STATE)).isEqualTo(1);
        assertThat(Files.readString(dirs[1].resolve("log").resolve("radius.log"))).doesNotContain("limited-1");
        // Unsigned without Proxy-State: FreeRADIUS (require_message_authenticator = no) answers, and the
        // director adds the Message-Authenticator the AAA did not send.
        fromOwnNas("limited", access("limited-2", false));
        FreeRadiusProcess.Result signed = radclient("limited", access("limited-3", true) + "\nProxy-State = 0x6f6b");
        assertThat(signed.exit()).as(signed.output()).isZero();
        // With both off the director lets Proxy-State through unsigned; FreeRADIUS echoes it (RFC 2865 §5.33).
        FreeRadiusProcess.Result lenient = radclient("lenient", access("lenient-1", false) + "\nProxy-State = 0x6f6b");
        assertThat(lenient.exit()).as(lenient.output()).isZero();
        assertThat(lenient.output()).contains("Received Access-Accept");
    }

    @Test
    void anAcceptWithoutMessageAuthenticatorFromARealThatMustSendOneIsDroppedAndCounted() throws Exception {
        FreeRadiusProcess.Result r = radclient("stand-in", access("stand-in-1", true), "-t", "1", "-r", "1");
        assertThat(r.exit()).isNotZero();
        assertThat(r.output()).doesNotContain("Received Access-Accept");
        assertThat(standIn.transactions).isNotEmpty(); // the stand-in answered, unsigned
        await().atMost(Duration.ofSeconds(5)).until(() -> registry.find("switchboard.radius.answers.refused")
                .tag("vserver", "stand-in").tag("reason", MessageAuthenticatorPolicy.MISSING.name()).counter() != null
                && registry.find("switchboard.radius.answers.refused").tag("vserver", "stand-in").counter().count() >= 1);
        assertThat(metrics("stand-in").relayedCount()).isZero();
    }

    @Test
    void aRetransmissionIsAnsweredFromTheCacheAndTheAaaSeesTheRequestOnce() throws Exception {
        ByteBuf request = RadiusPackets.accessRequest(77, CLIENT_SECRET, "dup-user", "testpw", List.of(
                RadiusPackets.text(RadiusAttributeType.CALLING_STATION_ID, "49151dup"),
                RadiusPackets.messageAuthenticator()));
        byte[] bytes = ByteBufUtil.getBytes(request);
        request.release();
        double forwarded = metrics("lenient").forwardedCount();
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            byte[] first = exchange(nas, "lenient", bytes);
            byte[] again = exchange(nas, "lenient", bytes); // the NAS lost the first answer
            assertThat(again).isEqualTo(first);
            assertSignedFirst(first, Arrays.copyOfRange(bytes, 4, 20));
        }
        assertThat(metrics("lenient").forwardedCount() - forwarded).as("forwarded once").isEqualTo(1);
        String log = Files.readString(dirs[1].resolve("log").resolve("radius.log"));
        assertThat(log.split("cli 49151dup", -1)).as(log).hasSize(2);
    }

    /**
     * What the NAS receives, as tshark decodes it (its RADIUS dissector, not this code's): an
     * Access-Accept and an Access-Reject from each AAA, the request signed or not, each with a
     * Message-Authenticator as its first attribute.
     */
    @Test
    void everyAccessAnswerTheNasGetsCarriesAMessageAuthenticatorFirstAsTsharkDecodesIt() throws Exception {
        PcapFile seen = new PcapFile();
        String[][] cases = {{"strict", "testpw", "y"}, {"strict", "wrong", "y"}, {"lenient", "testpw", "n"},
            {"lenient", "wrong", "n"}, {"lenient", "testpw", "y"}};
        int id = 100;
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            for (String[] c : cases) {
                List<RadiusAttribute> more = new ArrayList<>();
                if (c[2].equals("y")) {
                    more.add(RadiusPackets.messageAuthenticator());
                }
                ByteBuf packet = RadiusPackets.accessRequest(id++, CLIENT_SECRET, "tshark-" + id, c[1], more);
                byte[] bytes = ByteBufUtil.getBytes(packet);
                packet.release();
                byte[] answer = exchange(nas, c[0], bytes);
                seen.add(director.localAddress(c[0]), (InetSocketAddress) nas.getLocalSocketAddress(), answer);
            }
        }
        Path capture = work.resolve("to-nas.pcap");
        seen.write(capture);
        List<List<String>> rows = Tshark.fields(capture, List.of("-d", "udp.port==" + director.localAddress("strict")
                .getPort() + ",radius", "-d", "udp.port==" + director.localAddress("lenient").getPort() + ",radius"),
                "radius.code", "radius.avp.type", "radius.Message_Authenticator");
        assertThat(rows).hasSize(cases.length);
        assertThat(rows).extracting(r -> r.get(0)).containsExactly("2", "3", "2", "3", "2");
        for (List<String> row : rows) {
            assertThat(row.get(1)).as("attribute types in order").startsWith("80,");
            assertThat(row.get(1).split(",")).as("one Message-Authenticator").containsOnlyOnce("80");
            assertThat(row.get(2)).hasSize(32);
        }
    }

    // ---- helpers ----

    private static String access(String user, boolean messageAuthenticator) {
        return "User-Name = \"" + user + "\"\nUser-Password = \"testpw\"\nCalling-Station-Id = \"" + user + "\""
                + (messageAuthenticator ? "\nMessage-Authenticator = 0x00" : "");
    }

    private static FreeRadiusProcess.Result radclient(String vserver, String request, String... options) throws Exception {
        InetSocketAddress vip = director.localAddress(vserver);
        Path file = Files.createTempFile(work, "request", ".txt");
        Files.writeString(file, request + "\n");
        List<String> command = new ArrayList<>(List.of("radclient", "-x"));
        command.addAll(options.length == 0 ? List.of("-t", "3", "-r", "2") : List.of(options));
        command.addAll(List.of("-f", file.toString(), vip.getAddress().getHostAddress() + ":" + vip.getPort(), "auth",
                CLIENT_SECRET));
        return run(command);
    }

    /** The radclient request text sent by a NAS of our own (signed by RadiusPackets); the answer. */
    private static byte[] fromOwnNas(String vserver, String request) throws Exception {
        List<RadiusAttribute> attributes = new ArrayList<>();
        String user = null;
        boolean signed = false;
        for (String line : request.split("\n")) {
            String[] kv = line.split(" = ", 2);
            String value = kv[1].replace("\"", "");
            switch (kv[0]) {
                case "User-Name" -> user = value;
                case "Calling-Station-Id" -> attributes.add(RadiusPackets.text(RadiusAttributeType.CALLING_STATION_ID,
                        value));
                case "Message-Authenticator" -> signed = true;
                default -> { }
            }
        }
        if (signed) {
            attributes.add(RadiusPackets.messageAuthenticator());
        }
        ByteBuf packet = RadiusPackets.accessRequest(11, CLIENT_SECRET, user, "testpw", attributes);
        byte[] bytes = ByteBufUtil.getBytes(packet);
        packet.release();
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            byte[] answer = exchange(nas, vserver, bytes);
            assertSignedFirst(answer, Arrays.copyOfRange(bytes, 4, 20));
            return answer;
        }
    }

    private static byte[] exchange(DatagramSocket nas, String vserver, byte[] request) throws IOException {
        nas.send(new DatagramPacket(request, request.length, director.localAddress(vserver)));
        nas.setSoTimeout(5000);
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            nas.receive(in);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer from " + vserver, e);
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    /** RFC 3579 §3.2, computed here: the first attribute is a Message-Authenticator that verifies. */
    private static void assertSignedFirst(byte[] answer, byte[] requestAuthenticator) throws Exception {
        assertThat(answer[0] & 0xff).isEqualTo(2);
        assertThat(answer[20]).isEqualTo((byte) 80);
        assertThat(answer[21]).isEqualTo((byte) 18);
        assertThat(Arrays.copyOfRange(answer, 22, 38))
                .isEqualTo(BlastRadiusTest.hmacMd5(answer, requestAuthenticator, CLIENT_SECRET));
    }

    private static VirtualServerMetrics metrics(String vserver) {
        return director.virtualServers().get(vserver).metrics();
    }


    private static FreeRadiusProcess.Result run(List<String> command) throws IOException, InterruptedException {
        return FreeRadiusProcess.run(work, command, 60);
    }
}
