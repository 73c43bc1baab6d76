package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.sim.SimulatedUdpBackend;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SIGHUP to a {@code switchboard run -c FILE} process: FILE is read again and reloaded, the outcome logged. */
class ReloadSignalIT {

    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:%d }
            farms:
              one:
                reals:
                  - { address: 127.0.0.1, port: %d, weight: %s }
            virtual-servers:
              vip:
                listen: 127.0.0.1:0
                service: udp
                farm: one
            """;

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

    @Test
    void sighupReloadsTheFileGivenToRun() throws Exception {
        backend = new SimulatedUdpBackend("only", new InetSocketAddress("127.0.0.1", 0));
        // The kernel picks the admin port and the node logs it: a port picked here and bound later can
        // be another process's by then (in the full suite this test met a node that answered there).
        Path config = Files.writeString(dir.resolve("switchboard.yaml"),
                CONFIG.formatted(0, backend.address().getPort(), "8"));
        Path log = dir.resolve("switchboard.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // SIGHUP at its default for the node: a suite started under nohup passes its SIG_IGN down, and
        // the JVM then installs no handler (the node warns; this test is about a node that can reload).
        process = new ProcessBuilder("env", "--default-signal=HUP", java, "-cp", System.getProperty("java.class.path"),
                SwitchboardCommand.class.getName(), "run", "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        HttpClient http = HttpClient.newHttpClient();
        ObjectMapper json = new ObjectMapper();
        Pattern admin = Pattern.compile("admin on /127\\.0\\.0\\.1:(\\d+)");
        await().atMost(Duration.ofSeconds(60)).until(() -> admin.matcher(Files.readString(log)).find());
        Matcher found = admin.matcher(Files.readString(log));
        assertThat(found.find()).isTrue();
        int adminPort = Integer.parseInt(found.group(1));
        URI farms = URI.create("http://127.0.0.1:" + adminPort + "/api/v1/farms/one");
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                http.send(HttpRequest.newBuilder(farms).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 200);

        Files.writeString(config, CONFIG.formatted(0, backend.address().getPort(), "3"));
        hangUp();

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(weight(http, json, farms))
                .as("the weight after SIGHUP; the node's log:%n%s", Files.readString(log)).isEqualTo(3));
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(log)
                .contains("reload: changed farms.one.reals[127.0.0.1:" + backend.address().getPort() + "].weight: 8 -> 3"));

        Files.writeString(config, CONFIG.formatted(0, backend.address().getPort(), "300"));
        hangUp();

        await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(log)
                .contains("reload: farms.one.reals[0].weight: must be 1..255"));
        assertThat(weight(http, json, farms)).isEqualTo(3);
        assertThat(process.isAlive()).isTrue();

        process.destroy();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    private void hangUp() throws Exception {
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private static int weight(HttpClient http, ObjectMapper json, URI farm) throws Exception {
        JsonNode body = json.readTree(http.send(HttpRequest.newBuilder(farm).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        return body.get("reals").get(0).get("weight").asInt();
    }
}
