package io.switchboard.app;

import static io.switchboard.app.NetnsTopology.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.NetnsTopology.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Interface awareness (IOS {@code access INTERFACE}, docs/ios-slb.md) in namespaces this test
 * creates ({@code netns/access-topology.sh}): the packaged director has one virtual address, reached
 * by three clients each over its own veth pair (ia, ib, ic); the virtual server has
 * {@code access: [ia, ib]}. Datagrams through ia and ib are answered by the real (a UDP echo); those
 * through ic are not, and each is counted in {@code switchboard_dropped_total{reason=
 * "not-access-interface"}}. A TCP virtual server with {@code access: [ia]} splices connections
 * through ia and the kernel refuses those through ic. A configuration naming an interface the host lacks is refused by
 * {@code check} with the key's path. Skipped unless root with ip netns and python3.
 */
class AccessInterfaceNetnsIT {

    private static final Path SCRIPT = Path.of("src", "test", "resources", "netns", "access-topology.sh");
    private static final String VIP = "10.77.9.1";
    private static final int PORT = 7000;
    /** Datagrams each client sends per attempt. */
    private static final int BURST = 3;
    /** Sends BURST datagrams to the virtual address, then prints how many distinct echoes came back within 1.5 s. */
    private static final String CLIENT = """
            import socket, sys, time
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            tag = sys.argv[1]
            for i in range(%d):
                s.sendto(("%%s-%%d" %% (tag, i)).encode(), ("%s", %d))
            seen = set()
            end = time.time() + 1.5
            while time.time() < end:
                s.settimeout(max(0.01, end - time.time()))
                try:
                    data, _ = s.recvfrom(2048)
                except socket.timeout:
                    break
                if data.startswith(b"echo:" + tag.encode()):
                    seen.add(data)
            print("answers=%%d" %% len(seen))
            """.formatted(BURST, VIP, PORT);
    /** The reals: a UDP echo on 127.0.0.1:7001 and a TCP echo on 127.0.0.1:7101 (a thread per connection). */
    private static final String ECHO = """
            import socket, threading
            t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            t.bind(("127.0.0.1", 7101))
            t.listen(16)
            def serve(c):
                with c:
                    while True:
                        data = c.recv(4096)
                        if not data:
                            return
                        c.sendall(b"echo:" + data)
            def accept():
                while True:
                    c, _ = t.accept()
                    threading.Thread(target=serve, args=(c,), daemon=True).start()
            threading.Thread(target=accept, daemon=True).start()
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            s.bind(("127.0.0.1", 7001))
            while True:
                data, peer = s.recvfrom(4096)
                s.sendto(b"echo:" + data, peer)
            """;
    /** One TCP connection to the TCP virtual server: prints what came back, or "refused". */
    private static final String TCP_CLIENT = """
            import socket
            try:
                c = socket.create_connection(("%s", 7100), timeout=3)
                c.sendall(b"hello")
                print(c.recv(100).decode())
            except ConnectionRefusedError:
                print("refused")
            """.formatted(VIP);

    @TempDir
    static Path dir;

    private static String suffix;
    private static Process director;
    private static Process echo;

    @BeforeAll
    static void setUp() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        for (String tool : List.of("ip", "python3", "curl")) {
            Assumptions.assumeTrue(run(List.of("sh", "-c", "command -v " + tool)).exit() == 0,
                    tool + " is not installed (.ci/run installs iproute2, curl; python3 comes with Debian)");
        }
        assertThat(NetnsTopology.JAR).as("the shaded jar is built in the package phase").exists();
        suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff), 16);
        Result up = run(List.of("bash", SCRIPT.toString(), "up", suffix));
        assertThat(up.exit()).as("topology: %s", up.output()).isZero();
        echo = new ProcessBuilder("ip", "netns", "exec", ns("d"), "python3", "-c", ECHO)
                .redirectErrorStream(true).redirectOutput(dir.resolve("echo.log").toFile()).start();
        Path config = Files.writeString(dir.resolve("switchboard.yaml"), configWithAccess("[ia, ib]"));
        director = new ProcessBuilder("ip", "netns", "exec", ns("d"),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                NetnsTopology.JAR.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("director.log").toFile()).start();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() ->
                Files.readString(dir.resolve("director.log")).contains("access [ia, ib]")
                        && Files.readString(dir.resolve("director.log")).contains("(tcp) listening on /10.77.9.1:7100, access [ia]")
                        && echo.isAlive());
    }

    private static String configWithAccess(String access) {
        return """
                admin: { listen: 127.0.0.1:8080 }
                farms:
                  echo:
                    reals:
                      - { address: 127.0.0.1, port: 7001 }
                  tcp-echo:
                    reals:
                      - { address: 127.0.0.1, port: 7101 }
                virtual-servers:
                  tcp-inside:
                    listen: %1$s:7100
                    service: tcp
                    farm: tcp-echo
                    access: [ia]
                  inside-only:
                    listen: %1$s:%2$d
                    service: udp
                    farm: echo
                    access: %3$s
                """.formatted(VIP, PORT, access);
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (director != null) {
            NetnsTopology.stop(director, dir.resolve("director.log"));
        }
        if (echo != null) {
            echo.destroy();
            if (!echo.waitFor(5, TimeUnit.SECONDS)) {
                echo.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        if (suffix != null) {
            run(List.of("bash", SCRIPT.toString(), "down", suffix));
        }
    }

    private static String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    /** How many of a burst from client namespace {@code client} (a, b or c) were answered. */
    private static int answers(String client) throws Exception {
        Result r = run(List.of("ip", "netns", "exec", ns(client), "python3", "-c", CLIENT, client));
        assertThat(r.exit()).as("client %s: %s", client, r.output()).isZero();
        return Integer.parseInt(r.output().trim().replaceAll("(?s).*answers=(\\d+).*", "$1"));
    }

    /** switchboard_dropped_total{reason="not-access-interface"} of the virtual server, 0 before the first. */
    private static double refused() throws Exception {
        Result r = run(List.of("ip", "netns", "exec", ns("d"), "curl", "-s", "--max-time", "2",
                "http://127.0.0.1:8080/metrics"));
        double sum = 0;
        for (String line : r.output().split("\n")) {
            if (line.startsWith("switchboard_dropped_total{") && line.contains("reason=\"not-access-interface\"")
                    && line.contains("inside-only")) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    @Test
    void onlyDatagramsThroughTheAccessInterfacesAreServedAndTheOthersAreCounted() throws Exception {
        // Both allowed interfaces: each has sockets of its own (one device per socket).
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(answers("a")).isEqualTo(BURST));
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(answers("b")).isEqualTo(BURST));
        double before = refused();
        assertThat(answers("c")).as("datagrams through ic, not an access interface").isZero();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(refused() - before).as("each datagram through ic counted once").isEqualTo(BURST));
        // The allowed clients are still served (the catch-all socket takes only the other interfaces').
        assertThat(answers("a")).isEqualTo(BURST);
        assertThat(refused() - before).isEqualTo(BURST);
    }

    @Test
    void tcpConnectionsThroughAnotherInterfaceAreRefused() throws Exception {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(NetnsTopology.run(List.of("ip", "netns",
                "exec", ns("a"), "python3", "-c", TCP_CLIENT)).output().trim()).isEqualTo("echo:hello"));
        // No listener is bound to ic: the kernel resets the connection.
        assertThat(NetnsTopology.run(List.of("ip", "netns", "exec", ns("c"), "python3", "-c", TCP_CLIENT)).output()
                .trim()).isEqualTo("refused");
    }

    @Test
    void anInterfaceTheHostLacksIsRefusedWithItsPath() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), configWithAccess("[ia, eth9]"));
        Result r = run(List.of("ip", "netns", "exec", ns("d"),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m", "-jar",
                NetnsTopology.JAR.toString(), "check", "-c", bad.toString()));
        assertThat(r.exit()).as(r.output()).isNotZero();
        assertThat(r.output()).contains("virtual-servers.inside-only.access[1]").contains("no interface 'eth9'")
                .doesNotContain("access[0]");
    }
}
