package io.switchboard.app;

import static io.switchboard.app.NetnsTopology.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.NetnsTopology.Result;
import io.switchboard.director.config.TransportKind;
import io.switchboard.director.transport.Transports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code client-nat: false} in a real network (docs/transparent.md): a NAS (radclient) in one
 * namespace, the packaged director in another with the host routing the page gives, and FreeRADIUS
 * in a third, whose reply says the source address it saw (its Reply-Message is
 * {@code %{Packet-Src-IP-Address}}). Without client NAT FreeRADIUS must see the NAS's own address and
 * the Access-Accept must still reach the NAS from the virtual address (radclient takes a reply only
 * from where it sent the request); with client NAT (the default, a second virtual server) it sees
 * the director's. Skipped unless root with ip netns, nft, freeradius and radclient.
 *
 * <p>Run on {@code transport: epoll} and on {@code transport: io_uring}, a topology and a director
 * each: both set {@code IP_TRANSPARENT} (docs/operations.md "Transport").
 */
@ParameterizedClass(name = "transport {0}")
@ValueSource(strings = {"epoll", "io_uring"})
class ClientNatNetnsIT {

    /** The transport of this run (the lifecycle methods take it as their argument). */
    @Parameter
    String transport;

    private static final Path SCRIPT = Path.of("src", "test", "resources", "netns", "transparent-topology.sh");
    private static final Path FREERADIUS_INSTANCE = Path.of("..", "radius-director", "src", "test", "resources",
            "freeradius", "make-instance.sh");
    private static final String NAS = "10.9.1.2";
    private static final String DIRECTOR_TOWARD_REALS = "10.9.2.1";
    private static final String REAL = "10.9.2.2";

    @TempDir
    static Path dir;

    private static String suffix;
    private static Process director;
    private static final List<Process> servers = new ArrayList<>();

    @BeforeParameterizedClassInvocation
    static void setUp(String transport) throws Exception {
        servers.clear();
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "network namespaces need root");
        for (String tool : List.of("ip", "nft", "freeradius", "radclient")) {
            Assumptions.assumeTrue(run(List.of("sh", "-c", "command -v " + tool)).exit() == 0,
                    tool + " is not installed (.ci/run installs iproute2, nftables, freeradius, freeradius-utils)");
        }
        TransportKind kind = TransportKind.fromConfigName(transport).orElseThrow();
        // A host without io_uring (io_uring_disabled, a seccomp profile) skips that run with its reason, as a
        // host without root skips the namespaces: the run on epoll still runs; the refusal is TransportRunJarIT's.
        Assumptions.assumeTrue(Transports.of(kind).available(),
                () -> Transports.problem(Optional.of(kind)).orElse(""));
        assertThat(NetnsTopology.JAR).as("the shaded jar is built in the package phase").exists();
        suffix = Integer.toString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff), 16);
        Result up = run(List.of("bash", SCRIPT.toString(), "up", suffix));
        assertThat(up.exit()).as("topology: %s", up.output()).isZero();

        // Two FreeRADIUS instances on the real, one per virtual server; each names in its reply the
        // source address it saw. Both know the 10/8 clients with the secret the director signs with.
        for (int port : List.of(1812, 1822)) {
            Path instance = dir.resolve(transport).resolve("aaa-" + port);
            Result made = run(List.of("bash", FREERADIUS_INSTANCE.toString(), instance.toString(),
                    "%{Packet-Src-IP-Address}", REAL, Integer.toString(port), Integer.toString(port + 1),
                    "director-to-aaa", "10.0.0.0/8"));
            assertThat(made.exit()).as("make-instance.sh: %s", made.output()).isZero();
            servers.add(new ProcessBuilder("ip", "netns", "exec", ns("r"), "freeradius", "-f", "-d",
                    instance.toString(), "-n", "radiusd", "-l", instance.resolve("log/radius.log").toString())
                    .redirectErrorStream(true).redirectOutput(instance.resolve("log/stdout.log").toFile()).start());
        }
        Path config = dir.resolve("switchboard.yaml");
        Files.writeString(config, "transport: " + transport + "\n" + """
                admin: { listen: 127.0.0.1:8080 }
                farms:
                  aaa:
                    reals:
                      - { address: 10.9.2.2, port: 1812, secret: director-to-aaa }
                  aaa-nat:
                    reals:
                      - { address: 10.9.2.2, port: 1822, secret: director-to-aaa }
                virtual-servers:
                  transparent:
                    listen: 10.9.0.10:1812
                    service: radius
                    farm: aaa
                    client-nat: false
                    clients: [ { subnet: 10.9.1.0/24, secret: nas-to-director } ]
                  translated:
                    listen: 10.9.0.10:1822
                    service: radius
                    farm: aaa-nat
                    clients: [ { subnet: 10.9.1.0/24, secret: nas-to-director } ]
                """);
        director = new ProcessBuilder("ip", "netns", "exec", ns("d"),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                NetnsTopology.JAR.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("director.log").toFile()).start();
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250)).until(() ->
                Files.readString(dir.resolve("director.log")).contains("virtual server translated (radius) listening")
                        && servers.stream().allMatch(Process::isAlive));
    }

    @AfterParameterizedClassInvocation
    static void tearDown() throws Exception {
        if (director != null) {
            NetnsTopology.stop(director, dir.resolve("director.log"));
            director = null;
        }
        for (Process server : servers) {
            server.destroy();
            server.waitFor();
        }
        servers.clear();
        if (suffix != null) {
            run(List.of("bash", SCRIPT.toString(), "down", suffix));
            suffix = null;
        }
    }

    private static String ns(String name) {
        return "sb-" + suffix + "-" + name;
    }

    /** radclient in the NAS's namespace: one Access-Request to the virtual address's {@code port}. */
    private static Result accessRequest(int port) throws Exception {
        return run(List.of("ip", "netns", "exec", ns("c"), "sh", "-c",
                "echo 'User-Name = bob, User-Password = testpw' | radclient -x -r 3 -t 2 10.9.0.10:" + port
                        + " auth nas-to-director"));
    }

    @Test
    void withoutClientNatTheRealSeesTheNasAndTheAnswerComesFromTheVirtualAddress() throws Exception {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Result r = accessRequest(1812);
            // RFC 2865 §3: radclient matches the reply to the request it sent 10.9.0.10; one from
            // elsewhere would be ignored, and radclient would report no reply.
            assertThat(r.output()).as("radclient").contains("Received Access-Accept")
                    .contains("from 10.9.0.10:1812").contains("Reply-Message = \"served by " + NAS + "\"");
        });
    }

    @Test
    void withClientNatTheRealSeesTheDirector() throws Exception {
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Result r = accessRequest(1822);
            assertThat(r.output()).as("radclient").contains("Received Access-Accept")
                    .contains("from 10.9.0.10:1822")
                    .contains("Reply-Message = \"served by " + DIRECTOR_TOWARD_REALS + "\"");
        });
    }
}
