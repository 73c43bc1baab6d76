package io.switchboard.director.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.ToyPlugin;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Virtual servers added, removed and changed on a running director: an added one is bound and
 * serves; a removed one answers what it has in flight, refuses the rest and is unbound; a changed
 * one — another farm, response timeout or address — answers every pending transaction, and a
 * client's retransmission of one goes to the real that has it, under the same director id.
 */
class LiveVirtualServersIT {

    private TransactionUpstreamIT.ToyServer toys;
    private TransactionUpstreamIT.ToyServer spares;
    private SimpleMeterRegistry registry;
    private RunningDirector running;
    private InetSocketAddress vip;

    @BeforeEach
    void start() throws Exception {
        toys = new TransactionUpstreamIT.ToyServer();
        spares = new TransactionUpstreamIT.ToyServer();
        FarmConfig toyFarm = RunningDirector.loopbackFarm("toys", new int[] {toys.port()}, new int[] {1});
        FarmConfig spareFarm = RunningDirector.loopbackFarm("spares", new int[] {spares.port()}, new int[] {1});
        VirtualServerConfig vs = toy("toy", "127.0.0.1", "toys", Duration.ofSeconds(30));
        registry = new SimpleMeterRegistry();
        running = RunningDirector.start(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("toys", toyFarm, "spares", spareFarm), Map.of("toy", vs)),
                ToyPlugin.service("toy", ToyPlugin::new), registry);
        vip = running.vip("toy");
    }

    @AfterEach
    void stop() throws Exception {
        running.close();
        toys.close();
        spares.close();
    }

    private static VirtualServerConfig toy(String name, String address, String farm, Duration responseTimeout)
            throws IOException {
        return new VirtualServerConfig(name, new Endpoint(InetAddress.getByName(address), 0), "toy", farm,
                Optional.empty(), responseTimeout, Duration.ofMinutes(1), 2048, true);
    }

    private Director director() {
        return running.director();
    }

    private static <T> T result(io.vertx.core.Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static void send(DatagramSocket socket, byte[] bytes, InetSocketAddress to) throws IOException {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    /** The next datagram, or null when none comes within {@code millis}. */
    private static byte[] receive(DatagramSocket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        DatagramPacket in = new DatagramPacket(new byte[8192], 8192);
        try {
            socket.receive(in);
        } catch (SocketTimeoutException e) {
            return null;
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }

    private int inFlight() throws Exception {
        return result(director().inFlight());
    }

    private static DatagramSocket client() throws SocketException {
        return new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
    }

    @Test
    void anAddedVirtualServerIsBoundAndServes() throws Exception {
        result(director().addVirtualServer(toy("second", "127.0.0.1", "spares", Duration.ofSeconds(30))));

        InetSocketAddress second = running.vip("second");
        assertThat(second).isNotNull();
        try (DatagramSocket alice = client()) {
            send(alice, ToyPlugin.request(5, "alice;hello"), second);
            byte[] answer = receive(alice, 5_000);
            assertThat(answer).isNotNull();
            assertThat(ToyPlugin.id(answer)).isEqualTo(5);
        }
        assertThat(spares.ids).hasSize(1);
        assertThat(registry.find("switchboard.requests.forwarded").tag("vserver", "second").counter().count())
                .isEqualTo(1);
    }

    @Test
    void aRemovedVirtualServerAnswersWhatItHasInFlightThenIsUnbound() throws Exception {
        VirtualServer removed = director().virtualServers().get("toy");
        toys.hold = true;
        try (DatagramSocket alice = client(); DatagramSocket bob = client()) {
            send(alice, ToyPlugin.request(7, "alice;before"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 1);

            var unbound = director().removeVirtualServer("toy").toCompletionStage().toCompletableFuture();
            assertThat(director().virtualServers()).doesNotContainKey("toy");
            send(bob, ToyPlugin.request(8, "bob;after"), vip);
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> removed.metrics().droppedCount(EngineDrops.REMOVED) == 1);
            send(alice, ToyPlugin.request(7, "alice;before"), vip); // a retransmission of what is in flight
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 2);
            assertThat(unbound).as("Alice's request is still in flight").isNotDone();

            toys.hold = false;
            toys.release();
            assertThat(receive(alice, 5_000)).as("the answer still reaches the client").isNotNull();
            assertThat(unbound.get(5, TimeUnit.SECONDS)).as("nothing was left in flight").isZero();

            send(bob, ToyPlugin.request(9, "bob;too late"), vip);
            assertThat(receive(bob, 500)).as("nothing listens any more").isNull();
            assertThat(toys.ids).hasSize(2);
            assertThat(registry.find("switchboard.requests.received").tag("vserver", "toy").meters())
                    .as("its meters are gone").isEmpty();
        }
    }

    @Test
    void aChangedFarmAndTimeoutAnswerThePendingTransactionsAndTheirRetransmissions() throws Exception {
        toys.hold = true;
        try (DatagramSocket alice = client(); DatagramSocket bob = client()) {
            send(alice, ToyPlugin.request(7, "alice;before"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 1);

            result(director().replaceVirtualServer(toy("toy", "127.0.0.1", "spares", Duration.ofSeconds(20))));
            VirtualServer replacement = director().virtualServers().get("toy");
            assertThat(replacement.selector().farm().name()).isEqualTo("spares");
            assertThat(running.vip("toy")).as("the same sockets").isEqualTo(vip);

            send(alice, ToyPlugin.request(7, "alice;before"), vip); // Alice retransmits her pending request
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 2);
            assertThat(toys.ids.get(1)).as("the same director id").isEqualTo(toys.ids.get(0));
            send(bob, ToyPlugin.request(8, "bob;after"), vip);
            byte[] bobs = receive(bob, 5_000);
            assertThat(bobs).as("a new request goes to the new farm").isNotNull();
            assertThat(ToyPlugin.id(bobs)).isEqualTo(8);
            assertThat(spares.ids).hasSize(1);
            assertThat(inFlight()).as("Alice's request, held by the old engine").isEqualTo(1);

            toys.hold = false;
            toys.release();
            byte[] alices = receive(alice, 5_000);
            assertThat(alices).as("the old engine's answer reaches the client").isNotNull();
            assertThat(ToyPlugin.id(alices)).isEqualTo(7);
            await().atMost(Duration.ofSeconds(5)).until(() -> inFlight() == 0);
            assertThat(replacement.metrics().expiredCount()).as("nothing lost").isZero();
            assertThat(replacement.metrics().retransmittedCount()).isEqualTo(1);
            assertThat(replacement.metrics().forwardedCount()).as("the same counters go on").isEqualTo(2);
        }
    }

    @Test
    void aChangedAddressBindsFirstAndTheOldOneServesUntilItIsQuiet() throws Exception {
        // The old address closes once quiet for its response timeout: a short one keeps the test short.
        result(director().replaceVirtualServer(toy("toy", "127.0.0.1", "toys", Duration.ofSeconds(2))));
        toys.hold = true;
        try (DatagramSocket alice = client(); DatagramSocket bob = client()) {
            send(alice, ToyPlugin.request(7, "alice;before"), vip);
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 1);

            result(director().replaceVirtualServer(toy("toy", "127.0.0.2", "toys", Duration.ofSeconds(2))));
            InetSocketAddress moved = running.vip("toy");
            assertThat(moved.getAddress().getHostAddress()).isEqualTo("127.0.0.2");

            send(alice, ToyPlugin.request(7, "alice;before"), vip); // to the old address: still served
            await().atMost(Duration.ofSeconds(5)).until(() -> toys.ids.size() == 2);
            toys.hold = false;
            toys.release();
            assertThat(receive(alice, 5_000)).as("answered from the old address").isNotNull();
            send(bob, ToyPlugin.request(8, "bob;moved"), moved);
            byte[] bobs = receive(bob, 5_000);
            assertThat(bobs).as("the new address serves").isNotNull();
            assertThat(ToyPlugin.id(bobs)).isEqualTo(8);

            // Quiet for its response timeout, nothing in flight: the old address closes.
            await().atMost(Duration.ofSeconds(10)).until(() -> bindable(vip));
            assertThat(inFlight()).isZero();
        }
    }

    @Test
    void aLargerMaxDatagramIsReadWholeOnTheSameSockets() throws Exception {
        VirtualServerConfig before = director().virtualServers().get("toy").config();
        VirtualServerConfig larger = new VirtualServerConfig("toy", before.listen(), "toy", "toys", Optional.empty(),
                before.responseTimeout(), before.idle(), 4096, true);
        byte[] big = ToyPlugin.request(11, "alice;" + "x".repeat(3000));
        try (DatagramSocket alice = client()) {
            send(alice, big, vip);
            await().atMost(Duration.ofSeconds(5)).until(
                    () -> director().virtualServers().get("toy").metrics().droppedCount(
                            io.switchboard.codec.DropReason.OVERSIZED) == 1);

            result(director().replaceVirtualServer(larger));

            send(alice, big, vip);
            byte[] answer = receive(alice, 5_000);
            assertThat(answer).as("forwarded and answered").isNotNull();
            assertThat(answer).as("read whole: the sockets' buffers follow").hasSize(big.length);
        }
    }

    /** Whether nothing is bound to the address any more. */
    private static boolean bindable(InetSocketAddress address) {
        try (DatagramSocket probe = new DatagramSocket(address)) {
            return true;
        } catch (SocketException e) {
            return false;
        }
    }
}
