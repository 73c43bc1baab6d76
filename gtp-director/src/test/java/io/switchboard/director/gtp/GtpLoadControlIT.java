package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GTPv2 load and overload control through a {@code gtp-inspect} director: two PGW stand-ins
 * (127.0.6.20/.21) put crafted Load/Overload Control Information in their Create Session Responses;
 * the director weighs them by it — new subscribers split by weight, an older figure ignored, a PGW
 * that asks to shed 100 % gets none until its Period of Validity ends — and relays the answers
 * unchanged (tshark reads the figures back from what the requester received).
 */
class GtpLoadControlIT {

    /** A GTPv2 IE (TS 29.274 §8.2.1): type, length, spare and instance, value. */
    static byte[] ie(int type, int instance, byte[] value) {
        return ByteBuffer.allocate(4 + value.length).put((byte) type).putShort((short) value.length)
                .put((byte) instance).put(value).array();
    }

    /** A GTPv2 message (with TEID) with {@code ies} appended and its length fixed. */
    static byte[] withIes(byte[] message, byte[] ies) {
        byte[] out = Arrays.copyOf(message, message.length + ies.length);
        System.arraycopy(ies, 0, out, message.length, ies.length);
        ByteBuffer.wrap(out).putShort(2, (short) (out.length - 4));
        return out;
    }

    /** A PGW stand-in: answers each Create Session Request with cause 16 and whatever {@link #figures} holds. */
    private static final class LoadReportingPgw implements AutoCloseable {
        final DatagramSocket socket;
        final AtomicInteger creates = new AtomicInteger();
        volatile byte[] figures = new byte[0];
        private final Thread thread;

        LoadReportingPgw(String address) throws IOException {
            socket = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(address), 0));
            thread = new Thread(this::serve, "load-reporting-pgw-" + address);
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            byte[] in = new byte[4096];
            while (!socket.isClosed()) {
                try {
                    DatagramPacket packet = new DatagramPacket(in, in.length);
                    socket.receive(packet);
                    if (packet.getLength() < 12 || in[1] != 32) {
                        continue;
                    }
                    creates.incrementAndGet();
                    int sequence = (in[8] & 0xff) << 16 | (in[9] & 0xff) << 8 | (in[10] & 0xff);
                    byte[] answer = withIes(GtpMessages.v2CreateResponse(sequence, 16, 0x3000,
                            0x7000 + socket.getLocalPort(), GtpResponder.ADDRESS), figures);
                    socket.send(new DatagramPacket(answer, answer.length, packet.getSocketAddress()));
                } catch (IOException e) {
                    // closed
                }
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws InterruptedException {
            socket.close();
            thread.join(2000);
        }
    }

    @TempDir
    Path dir;

    private int nextImsi = 1;
    private int sequence = 1;

    /** Sends one create of a new IMSI and returns the answer. */
    private byte[] create(DatagramSocket requester, InetSocketAddress vip) throws IOException {
        byte[] request = GtpMessages.v2CreateRequest(String.format("26201%010d", nextImsi++), sequence++);
        requester.send(new DatagramPacket(request, request.length, vip));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            requester.receive(in);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer to a create", e);
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    @Test
    void loadAndOverloadFiguresWeighThePgws() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LoadReportingPgw a = new LoadReportingPgw("127.0.6.20"); LoadReportingPgw b = new LoadReportingPgw("127.0.6.21");
                DatagramSocket requester = new DatagramSocket(new InetSocketAddress(InetAddress.getByName("127.0.6.23"), 0))) {
            requester.setSoTimeout(3000);
            FarmConfig farm = new FarmConfig("pgw", PredictorKind.ROUNDROBIN, new FailureDetection(100, 1, Duration.ofMinutes(10)),
                    List.of(new RealConfig(InetAddress.getByName("127.0.6.20"), a.port(), 1, OptionalInt.empty(), true),
                            new RealConfig(InetAddress.getByName("127.0.6.21"), b.port(), 1, OptionalInt.empty(), true)),
                    Optional.empty());
            VirtualServerConfig vs = new VirtualServerConfig("gtp-c", new Endpoint(InetAddress.getByName("127.0.6.22"), 0),
                    "gtp-inspect", "pgw",
                    Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(), 10_000)),
                    Duration.ofSeconds(3), Duration.ofMinutes(1), 4096, true,
                    new GtpOptions(Set.of(2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1, GtpOptions.DEFAULT_RESOURCE_CAUSES_V2,
                            List.of(), GtpOptions.DEFAULT.v0TidOrder(), 0));
            Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                    Map.of("pgw", farm), Map.of("gtp-c", vs)), v -> new GtpInspectService(), registry, Ticker.SYSTEM);
            Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true)); // epoll, as `switchboard run`
            try {
                director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                InetSocketAddress vip = director.localAddress("gtp-c");
                RealServer realA = director.farms().farm("pgw").reals().get(0);
                RealServer realB = director.farms().farm("pgw").reals().get(1);

                // A reports load 80 (sequence 7): weights 2 (A) and 10 (B, no figures: load 0).
                a.figures = GtpLoadFeedbackTest.lci(0, 7, 80);
                List<byte[]> relayed = new ArrayList<>();
                while (a.creates.get() == 0) {
                    relayed.add(create(requester, vip));
                }
                assertThat(realA.weight()).isEqualTo(2);
                assertThat(realB.weight()).isEqualTo(10);
                int beforeA = a.creates.get();
                int beforeB = b.creates.get();
                for (int i = 0; i < 120; i++) {
                    create(requester, vip);
                }
                assertThat(a.creates.get() - beforeA).as("A's share of 120 new subscribers at 2:10").isBetween(18, 22);
                assertThat(b.creates.get() - beforeB).isBetween(98, 102);

                // An older figure (sequence 6) does not undo the newer one.
                a.figures = GtpLoadFeedbackTest.lci(0, 6, 0);
                int sentToA = a.creates.get();
                while (a.creates.get() == sentToA) {
                    create(requester, vip);
                }
                assertThat(realA.weight()).isEqualTo(2);

                // B asks to shed 100 % for 2 s (EPC Timer unit 2 s, value 1): only A gets new subscribers.
                b.figures = GtpLoadFeedbackTest.oci(0, 1, 100, 0b000_00001);
                int sentToB = b.creates.get();
                while (b.creates.get() == sentToB) {
                    create(requester, vip);
                }
                assertThat(realB.state()).isEqualTo(RealState.DFP_THROTTLED);
                b.figures = new byte[0];
                int throttledAt = b.creates.get();
                for (int i = 0; i < 20; i++) {
                    create(requester, vip);
                }
                assertThat(b.creates.get()).isEqualTo(throttledAt);
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    create(requester, vip); // the lapse is noticed on the request path
                    return b.creates.get() > throttledAt;
                });
                assertThat(realB.weight()).isEqualTo(10);
                assertThat(registry.get("switchboard.gtp.load.control").tag("ie", "load").tag("result", "stale").counter()
                        .count()).isGreaterThanOrEqualTo(1);

                if (Tshark.available()) {
                    Path pcap = dir.resolve("relayed.pcap");
                    Tshark.writePcap(pcap, relayed.subList(relayed.size() - 1, relayed.size()));
                    assertThat(Tshark.fields(pcap, "gtpv2.cause", "gtpv2.metric", "gtpv2.seq"))
                            .as("the answer from A as relayed, read by tshark").hasSize(1)
                            .allMatch(line -> line.startsWith("16|80|"));
                }
            } finally {
                director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
                vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
        }
    }
}
