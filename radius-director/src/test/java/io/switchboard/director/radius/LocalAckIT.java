package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
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
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.vertx.core.Vertx;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code radius: {accounting-local-ack: true}} (IOS SLB {@code radius acct local-ack key}) against real
 * peers: radclient as the NAS, which checks the Response Authenticator of what it receives (RFC 2866
 * §3) and reports a bad one, and a FreeRADIUS 3.2 accounting server as the real, whose detail file
 * shows it got the request. Secrets differ on each hop, so an answer relayed from the real without
 * re-signing would not verify, and the director's own one must be signed with the NAS's secret.
 */
class LocalAckIT {

    static final String CLIENT_SECRET = "nas-to-director";
    static final String REAL_SECRET = "director-to-aaa";
    static final String ADDRESS = "127.0.0.6";

    @TempDir
    static Path work;

    static Process server;
    static Path dir;
    static int acctPort;
    static Vertx vertx;
    static Director director;
    static InetSocketAddress vip;
    static final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeAll
    static void start() throws Exception {
        int authPort = FreeRadiusIT.freePort(ADDRESS);
        acctPort = FreeRadiusIT.freePort(ADDRESS);
        dir = work.resolve("aaa");
        FreeRadiusProcess.Result made = FreeRadiusProcess.run(work, List.of("bash", FreeRadiusIT.script().toString(),
                dir.toString(), "aaa", ADDRESS, String.valueOf(authPort), String.valueOf(acctPort), REAL_SECRET), 60);
        assertThat(made.exit()).as(made.output()).isZero();
        server = FreeRadiusProcess.start(dir);
        RealConfig acct = new RealConfig(InetAddress.getByName(ADDRESS), acctPort, 1, OptionalInt.empty(), true)
                .with(RadiusModule.SECRET, REAL_SECRET);
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("aaa-acct", new FarmConfig("aaa-acct", PredictorKind.ROUNDROBIN,
                new FailureDetection(8, 2, Duration.ofMinutes(1)), List.of(acct), Optional.empty(), List.of()));
        StickyConfig sticky = new StickyConfig(List.of(RadiusModule.CALLING_STATION_ID), Duration.ofHours(1),
                OptionalInt.empty(), 100_000, Optional.empty());
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32, CLIENT_SECRET)))
                .withAccountingLocalAck(true);
        Map<String, VirtualServerConfig> vservers = new LinkedHashMap<>();
        vservers.put("radius-acct", new VirtualServerConfig("radius-acct",
                new Endpoint(InetAddress.getByName("127.0.0.10"), 0), "radius", "aaa-acct", Optional.of(sticky),
                Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options));
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms, vservers),
                vs -> new RadiusService(), registry, Ticker.SYSTEM);
        vertx = Vertx.vertx();
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("radius-acct");
    }

    @AfterAll
    static void stop() throws Exception {
        if (director != null) {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (server != null) {
            FreeRadiusProcess.stop(server);
        }
    }

    static VirtualServerMetrics metrics() {
        return director.virtualServers().get("radius-acct").metrics();
    }

    static RealServer real() {
        return director.farms().real("aaa-acct", ADDRESS + ":" + acctPort);
    }

    static String detail() throws Exception {
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.walk(dir.resolve("log").resolve("radacct"))) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                text.append(Files.readString(f));
            }
        }
        return text.toString();
    }

    @Test
    void theNasGetsOneValidAnswerFromTheDirectorTheRealGetsTheRequestAndItsAnswerIsAbsorbed() throws Exception {
        VirtualServerMetrics m = metrics();
        double local = m.answeredLocallyCount();
        double absorbed = m.absorbedCount();
        double relayed = m.relayedCount();
        long forwarded = real().forwarded();
        Path file = Files.createTempFile(work, "start", ".txt");
        // Proxy-State must come back unmodified (RFC 2865 §5.33); radclient prints what it received.
        Files.writeString(file, FreeRadiusIT.accounting("Start", "alice", "491700000042", "10.20.0.7", "local-ack-1")
                + "\nProxy-State = 0x70726f78793a31\n");
        // One try (-r 1): a single datagram, so "one valid response" is radclient's own count.
        FreeRadiusProcess.Result r = FreeRadiusProcess.run(work, List.of("radclient", "-x", "-t", "3", "-r", "1", "-f",
                file.toString(), vip.getAddress().getHostAddress() + ":" + vip.getPort(), "acct", CLIENT_SECRET), 30);
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output().split("Received Accounting-Response", -1)).as(r.output()).hasSize(2);
        assertThat(r.output()).contains("Proxy-State = 0x70726f78793a31").doesNotContain("invalid")
                .doesNotContain("No reply");
        // The real got it, under its own secret, and answered: read (the Framed-IP binding learnt from
        // its acknowledgment of the Start, as without local-ack) and absorbed, not relayed.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(detail())
                .contains("Acct-Session-Id = \"local-ack-1\"").contains("Framed-IP-Address = 10.20.0.7"));
        await().atMost(Duration.ofSeconds(5)).until(() -> m.absorbedCount() == absorbed + 1);
        assertThat(m.answeredLocallyCount()).isEqualTo(local + 1);
        assertThat(m.relayedCount()).as("the real's answer is not relayed").isEqualTo(relayed);
        assertThat(real().forwarded()).isEqualTo(forwarded + 1);
        StickyBinding binding = director.virtualServers().get("radius-acct").selector().sticky()
                .lookup(StickyKey.parse(RadiusModule.FRAMED_IP, "10.20.0.7"), System.nanoTime());
        assertThat(binding).isEqualTo(new StickyBinding("aaa-acct", ADDRESS + ":" + acctPort));
    }

    @Test
    void aRetransmissionGetsTheSameAnswerAndIsNotForwardedAgain() throws Exception {
        VirtualServerMetrics m = metrics();
        double absorbed = m.absorbedCount();
        long forwarded = real().forwarded();
        ByteBuf request = RadiusPackets.accountingRequest(77, CLIENT_SECRET, List.of(
                new RadiusAttribute(RadiusAttributeType.ACCT_STATUS_TYPE.value(), new byte[] {0, 0, 0, 3}),
                RadiusPackets.text(RadiusAttributeType.ACCT_SESSION_ID, "local-ack-2"),
                RadiusPackets.text(RadiusAttributeType.USER_NAME, "bob")));
        byte[] bytes = new byte[request.readableBytes()];
        request.getBytes(request.readerIndex(), bytes);
        byte[] requestAuthenticator = Arrays.copyOfRange(bytes, 4, 20);
        request.release();
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            nas.setSoTimeout(3000);
            byte[] first = exchange(nas, bytes);
            byte[] second = exchange(nas, bytes); // RFC 5080 §2.2.2: a duplicate, same source, id, authenticator
            assertThat(second).isEqualTo(first);
            ByteBuf answer = io.netty.buffer.Unpooled.wrappedBuffer(first);
            assertThat((int) answer.getUnsignedByte(0)).isEqualTo(RadiusCode.ACCOUNTING_RESPONSE.value());
            assertThat((int) answer.getUnsignedByte(1)).isEqualTo(77);
            assertThat(RadiusAuthenticators.verifyResponse(RadiusPackets.view(answer), requestAuthenticator,
                    RadiusPackets.bytes(CLIENT_SECRET))).as("RFC 2866 §3 with the NAS's secret").isTrue();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> m.absorbedCount() == absorbed + 1);
        assertThat(real().forwarded()).as("the duplicate is answered from the cache").isEqualTo(forwarded + 1);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(detail()).contains("local-ack-2"));
    }

    static byte[] exchange(DatagramSocket nas, byte[] request) throws Exception {
        nas.send(new DatagramPacket(request, request.length, vip));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        nas.receive(in);
        return Arrays.copyOf(in.getData(), in.getLength());
    }
}
