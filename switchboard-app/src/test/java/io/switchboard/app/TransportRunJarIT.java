package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.config.TransportKind;
import io.switchboard.director.transport.Transports;
import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar with {@code transport: io_uring} (docs/operations.md "Transport"): served on
 * io_uring where the host has it, and refused at start, with the key and Netty's reason, where it
 * has not. The host without io_uring is this one with Netty's own switch for it,
 * {@code -Dio.netty.transport.noNative=true}: the same {@code IoUring.isAvailable()} false and
 * {@code unavailabilityCause()} a kernel without io_uring or a seccomp profile give.
 */
class TransportRunJarIT {

    private static final Path JAR = Path.of("target", "switchboard.jar");

    @TempDir
    Path dir;

    private Process process;
    private SimulatedUdpBackend backend;

    @AfterEach
    void stop() throws Exception {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (backend != null) {
            backend.close();
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            return s.getLocalPort();
        }
    }

    /** {@code java [jvmOptions] -jar switchboard.jar run} on {@code transport}; output in switchboard.log. */
    private Path start(String transport, int realPort, int vipPort, String... jvmOptions) throws IOException {
        Path config = Files.writeString(dir.resolve("switchboard.yaml"), """
                transport: %s
                admin: { enabled: false }
                farms:
                  one:
                    reals:
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  vip:
                    listen: 127.0.0.1:%d
                    service: udp
                    farm: one
                """.formatted(transport, realPort, vipPort));
        Path log = dir.resolve("switchboard.log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", JAR.toString(), "run", "-c", config.toString()));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return log;
    }

    @Test
    void onIoUringTheJarServesThroughSoReusePortLanes() throws Exception {
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        // A host without io_uring skips this with its reason; the next test checks the refusal it would see.
        Assumptions.assumeTrue(Transports.IO_URING.available(),
                () -> Transports.problem(Optional.of(TransportKind.IO_URING)).orElse(""));
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        int vipPort = freeUdpPort();
        Path log = start("io_uring", backend.address().getPort(), vipPort);
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(log).contains("switchboard running with"));
        assertThat(Files.readString(log)).contains("transport io_uring")
                .contains("listening on /127.0.0.1:" + vipPort).contains("(io_uring, SO_REUSEPORT)");
        try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", vipPort))) {
            for (int i = 0; i < 20; i++) {
                assertThat(client.ask("over-io_uring-" + i, Duration.ofSeconds(5))).isEqualTo("only|over-io_uring-" + i);
            }
        }
        process.destroy(); // SIGTERM
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits on SIGTERM").isTrue();
    }

    @Test
    void whereIoUringIsUnavailableTheNodeRefusesToStartAndSaysWhy() throws Exception {
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        int vipPort = freeUdpPort();
        Path log = start("io_uring", 9, vipPort, "-Dio.netty.transport.noNative=true");
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("exits without serving").isTrue();
        assertThat(process.exitValue()).isEqualTo(1);
        assertThat(Files.readString(log))
                .contains("switchboard: cannot start: transport: io_uring is not available on this host"
                        + " (Native transport was explicit disabled with -Dio.netty.transport.noNative=true)")
                .contains("/proc/sys/kernel/io_uring_disabled")
                .doesNotContain("listening on");
        // Nothing was bound: the virtual server's port is free.
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", vipPort))) {
            assertThat(s.getLocalPort()).isEqualTo(vipPort);
        }
    }
}
