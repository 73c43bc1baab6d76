package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * HTTP through {@code tcp} virtual servers in front of two HTTP servers, with curl as the client (each
 * call from its own loopback address): weighted distribution, subnet stickiness, the access list, an
 * HTTP probe failing and restoring a real, maxconns throttling and the SYN guard.
 */
class TcpVirtualServerIT {

    private final Vertx backends = Vertx.vertx();
    private final List<HttpServer> servers = new ArrayList<>();
    private final AtomicBoolean betaHealthy = new AtomicBoolean(true);
    private final List<Socket> held = new ArrayList<>();
    private Node node;
    private int alpha;
    private int beta;

    @BeforeEach
    void start() throws Exception {
        alpha = httpServer("alpha", new AtomicBoolean(true));
        beta = httpServer("beta", betaHealthy);
        String yaml = """
                admin: { enabled: false }
                probes:
                  health: { type: http, path: /health, interval: 100ms, timeout: 1s, failures: 2 }
                farms:
                  web:
                    probes: [health]
                    reals:
                      - { address: 127.0.0.1, port: %1$d, weight: 2 }
                      - { address: 127.0.0.1, port: %2$d, weight: 1 }
                  limited:
                    reals:
                      - { address: 127.0.0.1, port: %1$d, weight: 1, maxconns: 1 }
                      - { address: 127.0.0.1, port: %2$d, weight: 1 }
                virtual-servers:
                  http:
                    listen: 127.0.0.1:0
                    service: tcp
                    farm: web
                    sticky: { key: client-address, netmask: 255.255.255.0, idle: 10m }
                    clients: [127.0.0.0/16]
                  throttled:
                    listen: 127.0.0.1:0
                    service: tcp
                    farm: limited
                  guarded:
                    listen: 127.0.0.1:0
                    service: tcp
                    farm: limited
                    tcp: { syn-guard: { limit: 3, interval: 1h } }
                """.formatted(alpha, beta);
        node = Nodes.started(yaml);
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket s : held) {
            s.close();
        }
        if (node != null) {
            node.close();
        }
        backends.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private int httpServer(String name, AtomicBoolean healthy) throws Exception {
        HttpServer server = backends.createHttpServer().requestHandler(request -> {
            if (request.path().equals("/health")) {
                request.response().setStatusCode(healthy.get() ? 200 : 500).end();
            } else {
                request.response().end(name);
            }
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        servers.add(server);
        return server.actualPort();
    }

    /** GET / through a virtual server with curl bound to {@code from}; the body, or "" when refused. */
    private String curl(String from, String virtualServer) throws Exception {
        InetSocketAddress vip = node.director().localAddress(virtualServer);
        Process curl = new ProcessBuilder("curl", "-s", "--max-time", "5", "--interface", from,
                "http://127.0.0.1:" + vip.getPort() + "/").redirectErrorStream(true).start();
        assertThat(curl.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private RealServer real(String farm, int port) {
        return node.director().farms().real(farm, "127.0.0.1:" + port);
    }

    private double dropped(String virtualServer, String reason) {
        var c = node.registry().find("switchboard.dropped").tag("vserver", virtualServer).tag("reason", reason).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void spreadsByWeightKeepsSubnetsStickyAndRefusesOutsiders() throws Exception {
        List<String> answers = new ArrayList<>();
        for (int subnet = 1; subnet <= 6; subnet++) {
            answers.add(curl("127.0." + subnet + ".1", "http"));
        }
        assertThat(answers).containsExactly("alpha", "alpha", "beta", "alpha", "alpha", "beta");
        // Another client of the third /24 follows the first one to beta, repeatedly.
        for (int i = 0; i < 3; i++) {
            assertThat(curl("127.0.3.77", "http")).isEqualTo("beta");
        }

        assertThat(curl("127.1.0.5", "http")).isEmpty();
        assertThat(dropped("http", "client-not-allowed")).isEqualTo(1);
    }

    @Test
    void aRealFailingItsHttpProbeLosesItsClientsAndComesBack() throws Exception {
        assertThat(curl("127.0.1.1", "http")).isEqualTo("alpha");
        assertThat(curl("127.0.2.1", "http")).isEqualTo("alpha");
        assertThat(curl("127.0.3.1", "http")).isEqualTo("beta");
        RealServer betaReal = real("web", beta);

        betaHealthy.set(false);
        await().atMost(Duration.ofSeconds(10)).until(() -> betaReal.state() == RealState.PROBE_FAILED);
        assertThat(curl("127.0.3.1", "http")).isEqualTo("alpha");

        betaHealthy.set(true);
        await().atMost(Duration.ofSeconds(10)).until(() -> betaReal.state() == RealState.OPERATIONAL);
        // New clients reach beta again in its turn.
        List<String> later = new ArrayList<>();
        for (int subnet = 10; subnet < 13; subnet++) {
            later.add(curl("127.0." + subnet + ".1", "http"));
        }
        assertThat(later).contains("beta");
    }

    @Test
    void maxconnsThrottlesARealWhileItsConnectionsAreOpen() throws Exception {
        RealServer alphaReal = real("limited", alpha);
        InetSocketAddress vip = node.director().localAddress("throttled");
        Socket open = new Socket();
        open.bind(new InetSocketAddress("127.0.7.1", 0));
        open.connect(vip);
        held.add(open);
        await().atMost(Duration.ofSeconds(5)).until(() -> alphaReal.state() == RealState.MAXCONNS_THROTTLED);

        assertThat(curl("127.0.8.1", "throttled")).isEqualTo("beta");
        assertThat(curl("127.0.9.1", "throttled")).isEqualTo("beta");

        open.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> alphaReal.state() == RealState.OPERATIONAL);
        assertThat(alphaReal.connections()).isZero();
    }

    @Test
    void theSynGuardRefusesConnectionsOverItsLimit() throws Exception {
        for (int i = 0; i < 3; i++) {
            assertThat(curl("127.0.20." + (i + 1), "guarded")).isIn("alpha", "beta");
        }
        assertThat(curl("127.0.20.9", "guarded")).isEmpty();
        assertThat(dropped("guarded", "syn-guard")).isEqualTo(1);
    }
}
