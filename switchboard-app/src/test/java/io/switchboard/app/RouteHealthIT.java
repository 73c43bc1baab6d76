package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.real.RealServer;
import io.switchboard.sim.SimulatedUdpBackend;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route-health hook runs with up at start, down when the last real goes, up when one returns
 * ({@code advertise: true}, i.e. {@code active}); with {@code advertise: inservice} (IOS's default) it
 * follows the virtual server's own service state, not its reals'.
 */
class RouteHealthIT {

    @TempDir
    Path dir;

    private Node node;
    private SimulatedUdpBackend backend;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void theHookFollowsTheLastRealOfTheVirtualServer() throws Exception {
        Path calls = dir.resolve("calls.txt");
        Path hook = dir.resolve("hook.sh");
        Files.writeString(hook, "#!/bin/sh\necho \"$1 $2 $3\" >> " + calls + "\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        String yaml = """
                admin: { enabled: false }
                route-health: { hook: %s }
                farms:
                  one:
                    reals: [{ address: 127.0.0.1, port: %d }]
                virtual-servers:
                  announced:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: one
                    advertise: true
                  quiet:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: one
                """.formatted(hook, backend.address().getPort());
        node = Nodes.started(yaml);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(calls)
                && Files.readAllLines(calls).equals(List.of("up 127.0.0.1 announced")));

        RealServer real = node.director().farms().farm("one").reals().get(0);
        real.takeOutOfService();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 2);
        real.putInService();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 3);

        assertThat(Files.readAllLines(calls)).containsExactly(
                "up 127.0.0.1 announced", "down 127.0.0.1 announced", "up 127.0.0.1 announced");

        // A node that starts draining (SIGTERM) withdraws at once, its real still serving.
        node.director().drain(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 4);
        assertThat(Files.readAllLines(calls).get(3)).isEqualTo("down 127.0.0.1 announced");
        assertThat(real.state().takesNewWork()).isTrue();
    }

    @Test
    void inserviceFollowsTheServerAndActiveItsLastReal() throws Exception {
        Path calls = dir.resolve("calls.txt");
        Path hook = dir.resolve("hook.sh");
        Files.writeString(hook, "#!/bin/sh\necho \"$1 $2 $3\" >> " + calls + "\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwx------"));
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        String yaml = """
                admin: { enabled: false }
                route-health: { hook: %s }
                farms:
                  one:
                    reals: [{ address: 127.0.0.1, port: %d }]
                virtual-servers:
                  active:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: one
                    advertise: active
                  always:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: one
                    advertise: inservice
                """.formatted(hook, backend.address().getPort());
        node = Nodes.started(yaml);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(calls)
                && Files.readAllLines(calls).size() == 2);
        assertThat(Files.readAllLines(calls)).containsExactlyInAnyOrder("up 127.0.0.1 active", "up 127.0.0.1 always");

        // The last real goes: only the active one is withdrawn.
        RealServer real = node.director().farms().farm("one").reals().get(0);
        real.takeOutOfService();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 3);
        assertThat(Files.readAllLines(calls).get(2)).isEqualTo("down 127.0.0.1 active");

        // The inservice one is withdrawn when it is taken out of service itself, and back when put in.
        node.director().virtualServers().get("always").inService(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 4);
        assertThat(Files.readAllLines(calls).get(3)).isEqualTo("down 127.0.0.1 always");
        node.director().virtualServers().get("always").inService(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readAllLines(calls).size() == 5);
        assertThat(Files.readAllLines(calls).get(4)).isEqualTo("up 127.0.0.1 always");
        assertThat(real.state().takesNewWork()).isFalse();
    }
}
