package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged runnable jar as an operator starts it: {@code java -jar switchboard.jar run -c FILE}
 * in its own process serves traffic and the admin API, and stops on SIGTERM.
 */
class RunJarIT {

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


    @Test
    void theJarServesUntilSigterm() throws Exception {
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        int vipPort = freeUdpPort();
        int adminPort = LoopbackPorts.freeTcpPort();
        Path config = Files.writeString(dir.resolve("switchboard.yaml"), """
                admin: { listen: 127.0.0.1:%d }
                farms:
                  one:
                    reals:
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  vip:
                    listen: 127.0.0.1:%d
                    service: udp
                    farm: one
                """.formatted(adminPort, backend.address().getPort(), vipPort));
        Path log = dir.resolve("switchboard.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(java, "-jar", JAR.toString(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();

        HttpClient http = HttpClient.newHttpClient();
        URI health = URI.create("http://127.0.0.1:" + adminPort + "/health");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode() == 200);

        try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0.1", 0),
                new InetSocketAddress("127.0.0.1", vipPort))) {
            assertThat(client.ask("through-the-jar", Duration.ofSeconds(5))).isEqualTo("only|through-the-jar");
        }
        String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(metrics).contains("switchboard_requests_forwarded_total{service=\"udp\",vserver=\"vip\"} 1.0");

        process.destroy(); // SIGTERM
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exits on SIGTERM").isTrue();
        assertThat(Files.readString(log)).contains("switchboard running with");
    }
}
