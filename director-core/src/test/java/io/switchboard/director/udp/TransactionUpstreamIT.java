package io.switchboard.director.udp;

import io.switchboard.director.spi.DatagramService;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.ToyPlugin;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyKey;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The multiplexed transaction upstream with the test protocol {@link ToyPlugin} (datagrams
 * {@code 'Q'|'R', id (2 bytes), "subscriber;payload"}): director ids toward the real, client ids
 * restored, retransmissions resent with the same id, late answers dropped and counted.
 */
class TransactionUpstreamIT {

    /** A toy server: answers 'R', the same id, and the payload; records the ids it saw. Can hold answers back. */
    static final class ToyServer implements AutoCloseable {
        final DatagramSocket socket;
        final List<Integer> ids = new CopyOnWriteArrayList<>();
        /** "director port/id" of every request: ids are allocated per director socket (lane). */
        final List<String> transactions = new CopyOnWriteArrayList<>();
        final List<DatagramPacket> held = new CopyOnWriteArrayList<>();
        volatile boolean hold;
        private final Thread thread;

        ToyServer() throws IOException {
            socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            thread = new Thread(this::serve, "toy-server");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[8192], 8192);
                    socket.receive(in);
                    byte[] out = java.util.Arrays.copyOf(in.getData(), in.getLength());
                    out[0] = 'R';
                    ids.add(((out[1] & 0xff) << 8) | (out[2] & 0xff));
                    transactions.add(in.getPort() + "/" + ids.get(ids.size() - 1));
                    DatagramPacket answer = new DatagramPacket(out, out.length, in.getSocketAddress());
                    if (hold) {
                        held.add(answer);
                    } else {
                        socket.send(answer);
                    }
                } catch (IOException e) {
                    // closed
                }
            }
        }

        void release() throws IOException {
            for (DatagramPacket p : held) {
                socket.send(p);
            }
            held.clear();
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() {
            socket.close();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private ToyServer server;
    private RunningDirector running;
    private InetSocketAddress vip;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        server = new ToyServer();
        FarmConfig farm = RunningDirector.loopbackFarm("toys", new int[] {server.port()}, new int[] {1});
        VirtualServerConfig vs = new VirtualServerConfig("toy", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "radius", "toys",
                Optional.of(new StickyConfig(List.of(TestKinds.USERNAME), Duration.ofMinutes(5), OptionalInt.empty(), 1000)),
                // Long enough that the retransmission test (two awaits while answers are held) never sees
                // its request expire on a loaded machine; the expiry test waits for it.
                Duration.ofSeconds(2), Duration.ofMinutes(1), 2048, true);
        DatagramService toy = ToyPlugin.service("radius", ToyPlugin::new);
        running = RunningDirector.start(vs, farm, toy, registry);
        vip = running.vip("toy");
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
        server.close();
    }

    private static byte[] request(int id, String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[3 + body.length];
        out[0] = 'Q';
        out[1] = (byte) (id >> 8);
        out[2] = (byte) id;
        System.arraycopy(body, 0, out, 3, body.length);
        return out;
    }

    private static void send(DatagramSocket socket, byte[] bytes, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static byte[] receive(DatagramSocket socket, int timeoutMillis) throws IOException {
        socket.setSoTimeout(timeoutMillis);
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return java.util.Arrays.copyOf(in.getData(), in.getLength());
    }

    private VirtualServerMetrics metrics() {
        return running.director().virtualServers().get("toy").metrics();
    }

    @Test
    void clientsWithTheSameIdGetDistinctDirectorIdsAndTheirOwnIdBack() throws Exception {
        server.hold = true;
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket b = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            // Both pending at the real at once, with the same client id.
            send(a, request(7, "alice;hello"), vip);
            send(b, request(7, "bob;hi"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 2);
            server.hold = false;
            server.release();
            byte[] answerA = receive(a, 2000);
            byte[] answerB = receive(b, 2000);

            assertThat(answerA).isEqualTo(withFirst('R', request(7, "alice;hello")));
            assertThat(answerB).isEqualTo(withFirst('R', request(7, "bob;hi")));
            // The real tells them apart: never the same id from the same director socket.
            assertThat(server.transactions).hasSize(2).doesNotHaveDuplicates();
            assertThat(metrics().forwardedCount()).isEqualTo(2);
            assertThat(metrics().relayedCount()).isEqualTo(2);
        }
    }

    @Test
    void aRetransmissionGoesToTheSameRealWithTheSameIdAndIsNotCountedTwice() throws Exception {
        server.hold = true;
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(a, request(42, "carol;x"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 1);
            send(a, request(42, "carol;x"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 2);

            assertThat(server.ids.get(1)).isEqualTo(server.ids.get(0));
            assertThat(metrics().forwardedCount()).isEqualTo(1);
            assertThat(registry.get("switchboard.requests.retransmitted").counter().count()).isEqualTo(1);

            server.hold = false;
            server.release();
            assertThat(receive(a, 2000)).isEqualTo(withFirst('R', request(42, "carol;x")));
            // The second answer (to the retransmission) finds no pending request: late, dropped.
            assertThat(receive(a, 300)).isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> unmatched("late") == 1);
        }
    }

    @Test
    void anAnswerAfterTheTimeoutIsDroppedAndTheRequestCountsAsExpired() throws Exception {
        server.hold = true;
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(a, request(5, "dave;late"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().expiredCount() == 1);
            server.release();
            await().atMost(Duration.ofSeconds(5)).until(() -> unmatched("late") == 1);
            assertThat(receive(a, 300)).isNull();
            RealServer real = running.director().farms().farm("toys").reals().get(0);
            assertThat(real.unanswered()).isEqualTo(1);
            assertThat(real.connections()).isZero();
        }
    }

    @Test
    void aMalformedRequestIsDroppedWithItsReasonAndTrafficContinues() throws Exception {
        try (DatagramSocket a = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(a, "garbage".getBytes(StandardCharsets.US_ASCII), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().droppedCount(DropReason.MALFORMED) == 1);
            send(a, request(1, "erin;ok"), vip);
            assertThat(receive(a, 2000)).isEqualTo(withFirst('R', request(1, "erin;ok")));
        }
    }

    private double unmatched(String reason) {
        var c = registry.find("switchboard.responses.unmatched").tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    private static byte[] withFirst(char first, byte[] bytes) {
        bytes[0] = (byte) first;
        return bytes;
    }
}
