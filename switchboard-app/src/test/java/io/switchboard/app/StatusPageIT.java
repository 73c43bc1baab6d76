package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.switchboard.sim.SimulatedUdpBackend;
import io.switchboard.sim.SimulatedUdpClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page ({@code GET /ui}) in a real browser: headless Chromium (Debian's {@code chromium}) loads it
 * from a running node, runs its script against the admin API, and the rendered page is checked for what the
 * node holds: the virtual server with its counters, each real with its state (one taken out of service), the
 * node's status. A screenshot is kept as {@code target/status-page.png}.
 */
class StatusPageIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    private final List<SimulatedUdpBackend> backends = new ArrayList<>();
    private Node node;
    private URI base;

    @TempDir
    Path profile;

    @BeforeEach
    void start() throws Exception {
        for (String name : List.of("one", "two")) {
            backends.add(new SimulatedUdpBackend(name, new InetSocketAddress("127.0.0.1", 0)));
        }
        String yaml = """
                admin: { listen: 127.0.0.1:0 }
                farms:
                  pair:
                    reals:
                      - { address: 127.0.0.1, port: %d }
                      - { address: 127.0.0.1, port: %d }
                virtual-servers:
                  echo:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: pair
                    sticky: { key: client-address, idle: 10m }
                """.formatted(backends.get(0).address().getPort(), backends.get(1).address().getPort());
        node = Nodes.started(yaml);
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        backends.forEach(SimulatedUdpBackend::close);
    }

    /** Runs Chromium headless on the page with {@code action} ({@code --dump-dom} or {@code --screenshot=...}). */
    private String chromium(String... action) throws Exception {
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                // Virtual time stands still while the page's fetches are pending: the first poll completes.
                "--virtual-time-budget=5000", "--window-size=1280,900"));
        command.addAll(List.of(action));
        command.add(base.resolve("/ui").toString());
        Process browser = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String out = new String(browser.getInputStream().readAllBytes());
            assertThat(browser.waitFor(60, TimeUnit.SECONDS)).as("chromium ended").isTrue();
            assertThat(browser.exitValue()).isZero();
            return out;
        } finally {
            browser.destroyForcibly();
        }
    }

    @Test
    void thePageShowsTheNodesFarmsRealsAndVirtualServers() throws Exception {
        assumeTrue(Files.isExecutable(CHROMIUM), "Debian's chromium is not installed (.ci/run installs it)");
        InetSocketAddress vip = node.director().localAddress("echo");
        for (int i = 0; i < 3; i++) {
            try (SimulatedUdpClient client = new SimulatedUdpClient(new InetSocketAddress("127.0.0." + (60 + i), 0), vip)) {
                assertThat(client.ask("x", Duration.ofSeconds(5))).isNotNull();
            }
        }
        String second = "127.0.0.1:" + backends.get(1).address().getPort();
        HttpResponse<String> out = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                base.resolve("/api/v1/reals/pair/" + second + "/outofservice")).POST(HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(out.statusCode()).isEqualTo(200);

        HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/ui")).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.headers().firstValue("content-security-policy")).hasValueSatisfying(
                policy -> assertThat(policy).contains("default-src 'none'", "connect-src 'self'"));

        String dom = chromium("--dump-dom");
        String first = "127.0.0.1:" + backends.get(0).address().getPort();
        assertThat(dom).contains("<span id=\"status\" class=\"UP\">UP</span>");
        assertThat(dom).containsPattern("<td>echo</td><td>udp</td><td>127\\.0\\.0\\.1:" + vip.getPort()
                + "</td><td>pair</td><td class=\"state OPERATIONAL\">OPERATIONAL</td><td class=\"n\">3</td>"
                + "<td class=\"n\">3</td><td class=\"n\">3</td><td class=\"n\">0</td>");
        assertThat(dom).contains("<td>" + first + "</td><td class=\"state OPERATIONAL\">OPERATIONAL</td>");
        assertThat(dom).contains("<td>" + second + "</td><td class=\"state OUTOFSERVICE\">OUTOFSERVICE</td>");
        assertThat(dom).contains("not clustered: a single node");
        assertThat(dom).contains("<div id=\"error\"></div>");

        Path shot = Path.of("target", "status-page.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium("--screenshot=" + shot);
        assertThat(shot).isNotEmptyFile();
    }
}
