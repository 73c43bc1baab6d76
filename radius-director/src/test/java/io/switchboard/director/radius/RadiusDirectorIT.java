package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPackets.accessRequest;
import static io.switchboard.director.radius.RadiusPackets.bytes;
import static io.switchboard.director.radius.RadiusPackets.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The director with a small RADIUS responder of our own that can hold its answers: identifier
 * exhaustion toward one real, retransmissions, late duplicate answers.
 */
class RadiusDirectorIT {

    static final String CLIENT_SECRET = "client";
    static final String REAL_SECRET = "real";

    /** Answers every Access-Request with an Access-Accept signed with the real's secret; can hold answers. */
    static final class Responder implements AutoCloseable {
        final DatagramSocket socket;
        final List<String> transactions = new CopyOnWriteArrayList<>();
        final List<DatagramPacket> held = new CopyOnWriteArrayList<>();
        volatile boolean hold;
        private final Thread thread;

        Responder() throws IOException {
            socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            socket.setReceiveBufferSize(8 << 20);
            thread = new Thread(this::serve, "radius-responder");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                    socket.receive(in);
                    ByteBuf request = Unpooled.wrappedBuffer(in.getData(), 0, in.getLength());
                    transactions.add(in.getPort() + "/" + RadiusPackets.view(request).identifier());
                    ByteBuf answer = RadiusPackets.answer(RadiusCode.ACCESS_ACCEPT, request, REAL_SECRET,
                            List.of(text(RadiusAttributeType.REPLY_MESSAGE, "ok")));
                    byte[] out = ByteBufUtil.getBytes(answer);
                    DatagramPacket reply = new DatagramPacket(out, out.length, in.getSocketAddress());
                    if (hold) {
                        held.add(reply);
                    } else {
                        socket.send(reply);
                    }
                } catch (IOException e) {
                    // closed
                }
            }
        }

        void release() throws IOException {
            release(0, held.size());
        }

        void release(int from, int to) throws IOException {
            for (DatagramPacket p : held.subList(from, to)) {
                socket.send(p);
            }
        }

        @Override
        public void close() throws InterruptedException {
            socket.close();
            thread.join(2000);
        }
    }

    private Responder responder;
    private Vertx vertx;
    private Director director;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        responder = new Responder();
        FarmConfig farm = new FarmConfig("aaa", PredictorKind.ROUNDROBIN, new FailureDetection(100_000, 1,
                Duration.ofMinutes(1)), List.of(new RealConfig(InetAddress.getByName("127.0.0.1"),
                        responder.socket.getLocalPort(), 1, OptionalInt.empty(), true, Optional.of(REAL_SECRET))),
                Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("radius", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                ServiceKind.RADIUS, "aaa",
                Optional.of(new StickyConfig(List.of(StickyKind.USERNAME), Duration.ofMinutes(5), OptionalInt.empty(),
                        100_000)),
                Duration.ofSeconds(20), Duration.ofMinutes(1), 4096, true,
                new RadiusOptions(List.of(new RadiusOptions.Client(InetAddress.getByName("127.0.0.1"), 32,
                        CLIENT_SECRET))));
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("aaa", farm), Map.of("radius", vs)), v -> new RadiusService(), new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        vertx = Vertx.vertx();
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("radius");
    }

    @AfterEach
    void stop() throws Exception {
        director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        responder.close();
    }

    private VirtualServerMetrics metrics() {
        return director.virtualServers().get("radius").metrics();
    }

    private static void send(DatagramSocket socket, ByteBuf packet, InetSocketAddress to) throws IOException {
        byte[] bytes = ByteBufUtil.getBytes(packet);
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static byte[] receive(DatagramSocket socket, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return java.util.Arrays.copyOf(in.getData(), in.getLength());
    }

    @Test
    void moreThan256OutstandingRequestsToOneRealUseMoreSocketsWithoutCollision() throws Exception {
        responder.hold = true;
        int capacity = 256 * RadiusPlugin.UPSTREAM_SOCKETS;
        int total = capacity + 40;
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            nas.setSendBufferSize(4 << 20);
            for (int i = 0; i < total; i++) {
                send(nas, accessRequest(i & 0xff, CLIENT_SECRET, "user" + i, "pw", List.of()), vip);
                if (i % 200 == 199) {
                    // Let the director keep up; loopback drops what overflows a receive buffer.
                    int sent = i + 1;
                    await().atMost(Duration.ofSeconds(10)).until(() -> metrics().receivedCount() >= sent);
                }
            }
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                assertThat(metrics().receivedCount()).isEqualTo(total);
                assertThat(metrics().forwardedCount()).isEqualTo(capacity);
                assertThat(metrics().droppedCount(DropReason.PENDING_FULL)).isEqualTo(40);
                assertThat(responder.transactions).hasSize(capacity);
            });
            // Every outstanding request has its own (director socket, identifier).
            assertThat(new HashSet<>(responder.transactions)).hasSize(capacity);
            Set<String> ports = new HashSet<>();
            responder.transactions.forEach(t -> ports.add(t.substring(0, t.indexOf('/'))));
            assertThat(ports).hasSize(RadiusPlugin.UPSTREAM_SOCKETS);

            // Each answer is relayed to the NAS with its own identifier; released in chunks so that no
            // socket buffer on the way overflows.
            Set<Integer> identifiers = new HashSet<>();
            for (int chunk = 0; chunk < capacity; chunk += 128) {
                responder.release(chunk, chunk + 128);
                for (int i = chunk; i < chunk + 128; i++) {
                    byte[] answer = receive(nas, 5000);
                    assertThat(answer).as("answer %d", i).isNotNull();
                    identifiers.add(answer[1] & 0xff);
                }
            }
            assertThat(identifiers).hasSize(256);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().relayedCount() == capacity);
        }
    }

    @Test
    void aRetransmissionGoesOutWithTheSameIdentifierAndALateDuplicateAnswerIsDropped() throws Exception {
        responder.hold = true;
        try (DatagramSocket nas = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            ByteBuf request = accessRequest(99, CLIENT_SECRET, "alice", "pw", List.of());
            byte[] authenticator = RadiusPackets.view(request).authenticator();
            send(nas, request, vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> responder.transactions.size() == 1);
            send(nas, request, vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> responder.transactions.size() == 2);
            assertThat(responder.transactions.get(1)).isEqualTo(responder.transactions.get(0));
            assertThat(metrics().retransmittedCount()).isEqualTo(1);
            assertThat(metrics().forwardedCount()).isEqualTo(1);

            responder.release(); // two answers: the first is relayed, the second is late
            byte[] answer = receive(nas, 5000);
            assertThat(answer).isNotNull();
            RadiusView view = RadiusPackets.view(Unpooled.wrappedBuffer(answer));
            assertThat(view.identifier()).isEqualTo(99);
            assertThat(RadiusAuthenticators.verifyResponse(view, authenticator, bytes(CLIENT_SECRET))).isTrue();
            assertThat(receive(nas, 300)).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().unmatchedCount("late") == 1);
        }
    }
}
