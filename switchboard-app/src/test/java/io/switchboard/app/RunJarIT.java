package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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



    /**
     * Starts {@code java -jar switchboard.jar run} with one udp virtual server on {@code vipPort} in
     * front of one real on {@code realPort}, the admin API on {@code adminPort}, and waits until
     * {@code /health} says UP. Its output goes to switchboard.log in the test's directory.
     */
    private Path startJar(int adminPort, int realPort, int vipPort, String vsExtra, String... runArgs)
            throws Exception {
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
                %s""".formatted(adminPort, realPort, vipPort, vsExtra));
        Path log = dir.resolve("switchboard.log");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(javaBin, "-jar", JAR.toString(), "run", "-c", config.toString()));
        command.addAll(List.of(runArgs));
        process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HttpClient http = HttpClient.newHttpClient();
        URI health = URI.create("http://127.0.0.1:" + adminPort + "/health");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                http.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString())
                        .statusCode() == 200);
        return log;
    }

    @Test
    void theJarServesUntilSigterm() throws Exception {
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        int vipPort = freeUdpPort();
        int adminPort = LoopbackPorts.freeTcpPort();
        Path log = startJar(adminPort, backend.address().getPort(), vipPort, "");
        HttpClient http = HttpClient.newHttpClient();

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

    /** A backend that receives datagrams and answers them only when told (the answer in flight). */
    private static final class HoldingBackend implements AutoCloseable {
        final DatagramSocket socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        final java.util.List<DatagramPacket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Thread thread = new Thread(this::serve, "holding-backend");

        HoldingBackend() throws IOException {
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                    socket.receive(in);
                    byte[] answer = ("held|" + new String(in.getData(), 0, in.getLength(),
                            StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                    held.add(new DatagramPacket(answer, answer.length, in.getSocketAddress()));
                } catch (IOException e) {
                    // closed
                }
            }
        }

        void release() throws IOException {
            for (DatagramPacket p : held) {
                socket.send(p);
            }
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    /**
     * SIGTERM with a request in flight: the node refuses new work at once (and says DRAINING on
     * /health), still relays the answer it waits for, and then exits, well within its deadline.
     */
    @Test
    void onSigtermTheJarAnswersWhatIsInFlightRefusesNewWorkAndExits() throws Exception {
        assertThat(JAR).as("the shaded jar is built in the package phase").exists();
        try (HoldingBackend holding = new HoldingBackend();
             DatagramSocket alice = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             DatagramSocket bob = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            int vipPort = freeUdpPort();
            int adminPort = LoopbackPorts.freeTcpPort();
            Path log = startJar(adminPort, holding.socket.getLocalPort(), vipPort, "    response-timeout: 30s\n",
                    "--shutdown-deadline", "20s");
            HttpClient http = HttpClient.newHttpClient();
            URI health = URI.create("http://127.0.0.1:" + adminPort + "/health");
            URI metrics = URI.create("http://127.0.0.1:" + adminPort + "/metrics");
            InetSocketAddress vip = new InetSocketAddress("127.0.0.1", vipPort);
            byte[] before = "alice-before".getBytes(StandardCharsets.UTF_8);
            alice.send(new DatagramPacket(before, before.length, vip));
            await().atMost(Duration.ofSeconds(10)).until(() -> holding.held.size() == 1);

            process.destroy(); // SIGTERM
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(health).build(),
                        HttpResponse.BodyHandlers.ofString());
                return r.statusCode() == 503 && r.body().contains("DRAINING");
            });
            byte[] after = "bob-after".getBytes(StandardCharsets.UTF_8);
            bob.send(new DatagramPacket(after, after.length, vip));
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> http.send(HttpRequest
                    .newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString()).body()
                    .contains("switchboard_dropped_total{reason=\"shutting-down\",service=\"udp\",vserver=\"vip\"} 1.0"));
            assertThat(process.isAlive()).as("still answering what is in flight").isTrue();

            holding.release();
            alice.setSoTimeout(10_000);
            DatagramPacket answer = new DatagramPacket(new byte[2048], 2048);
            alice.receive(answer);
            assertThat(new String(answer.getData(), 0, answer.getLength(), StandardCharsets.UTF_8))
                    .isEqualTo("held|alice-before");
            assertThat(process.waitFor(15, TimeUnit.SECONDS)).as("exits once drained, before the deadline").isTrue();
            assertThat(holding.held).as("the new request never reached the backend").hasSize(1);
            assertThat(Files.readString(log)).contains("drained: nothing left in flight");
        }
    }
}
