package io.switchboard.director.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.ToyPlugin;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A draining director (the first half of a graceful shutdown): new requests are refused at once,
 * what is in flight — a pending request, its retransmission, its answer — goes on, and the drain ends
 * when nothing is in flight, or at its deadline with what was left.
 */
class DrainIT {

    private TransactionUpstreamIT.ToyServer server;
    private RunningDirector running;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        server = new TransactionUpstreamIT.ToyServer();
        server.hold = true;
        FarmConfig farm = RunningDirector.loopbackFarm("toys", new int[] {server.port()}, new int[] {1});
        VirtualServerConfig vs = new VirtualServerConfig("toy", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "toy", "toys", Optional.empty(), Duration.ofSeconds(30), Duration.ofMinutes(1), 2048, true);
        DatagramService toy = ToyPlugin.service("toy", ToyPlugin::new);
        running = RunningDirector.start(vs, farm, toy, new SimpleMeterRegistry());
        vip = running.vip("toy");
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
        server.close();
    }

    private static byte[] request(int id, String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(new byte[] {'Q', (byte) (id >> 8), (byte) id}, 3 + body.length);
        System.arraycopy(body, 0, out, 3, body.length);
        return out;
    }

    private static void send(DatagramSocket socket, byte[] bytes, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static byte[] receive(DatagramSocket socket) throws IOException {
        socket.setSoTimeout(5_000);
        DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    private VirtualServerMetrics metrics() {
        return running.director().virtualServers().get("toy").metrics();
    }

    @Test
    void aDrainingDirectorRefusesNewRequestsAndFinishesWhatIsInFlight() throws Exception {
        try (DatagramSocket alice = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket bob = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(alice, request(7, "alice;before"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 1);
            assertThat(running.director().inFlight().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS))
                    .isEqualTo(1);

            var drained = running.director().drain(Duration.ofSeconds(20)).toCompletionStage().toCompletableFuture();
            assertThat(running.director().draining()).isTrue();
            send(bob, request(8, "bob;after"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> metrics().droppedCount(EngineDrops.SHUTTING_DOWN) == 1);
            send(alice, request(7, "alice;before"), vip); // Alice retransmits: her request is in flight
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 2);
            assertThat(drained).as("Alice's request is still in flight").isNotDone();

            server.hold = false;
            server.release();
            assertThat(receive(alice)).as("the answer still reaches the client").isNotNull();
            assertThat(drained.get(5, TimeUnit.SECONDS)).as("nothing left in flight").isZero();
            assertThat(metrics().forwardedCount()).isEqualTo(1);
            assertThat(metrics().retransmittedCount()).isEqualTo(1);
            assertThat(metrics().relayedCount()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void aDrainEndsAtItsDeadlineWithWhatWasLeft() throws Exception {
        try (DatagramSocket alice = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(alice, request(9, "alice;never answered"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 1);
            long started = System.nanoTime();
            int left = running.director().drain(Duration.ofMillis(300)).toCompletionStage().toCompletableFuture()
                    .get(5, TimeUnit.SECONDS);
            assertThat(left).isEqualTo(1);
            assertThat(System.nanoTime() - started).as("not before the deadline")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
        }
    }
}
