package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Buddied {@code tcp} virtual servers (IOS {@code sticky ... group}): an HTTP and an "HTTPS" virtual
 * server in one sticky group in front of two hosts (127.0.5.11 and 127.0.5.12, each serving both
 * ports), curl as the client from addresses of 127.0.5.0/24 with a /28 netmask; the binding's idle
 * time counted from the end of the client's last connection; the connection idle and delay timers;
 * a connection a real refuses, reassigned to the next (IOS {@code reassign}).
 */
class TcpStickyGroupIT {

    private static final String ALPHA = "127.0.5.11";
    private static final String BETA = "127.0.5.12";
    private static final String SILENT = "127.0.5.13";

    private final Vertx backends = Vertx.vertx();
    private final List<Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
    private ServerSocket silent;
    private Node node;

    @BeforeEach
    void start() throws Exception {
        String yaml = """
                admin: { enabled: false }
                farms:
                  web80:
                    reals:
                      - { address: %1$s, port: %3$d, weight: 1 }
                      - { address: %2$s, port: %4$d, weight: 1 }
                  web443:
                    reals:
                      - { address: %1$s, port: %5$d, weight: 1 }
                      - { address: %2$s, port: %6$d, weight: 1 }
                  silent:
                    reals: [{ address: %7$s, port: %8$d }]
                  half-dead:
                    failure: { numconns: 1, numclients: 1, retry: 1h }
                    reals:
                      - { address: 127.0.5.14, port: %9$d, weight: 1 }
                      - { address: %1$s, port: %3$d, weight: 1 }
                virtual-servers:
                  http:
                    listen: 127.0.5.1:0
                    service: tcp
                    farm: web80
                    sticky: { key: client-address, netmask: 255.255.255.240, idle: 1s, group: web }
                  https:
                    listen: 127.0.5.1:0
                    service: tcp
                    farm: web443
                    sticky: { key: client-address, netmask: 255.255.255.240, idle: 1s, group: web }
                  timed:
                    listen: 127.0.5.2:0
                    service: tcp
                    farm: silent
                    tcp: { idle: 300ms }
                  lingering:
                    listen: 127.0.5.2:0
                    service: tcp
                    farm: silent
                    tcp: { delay: 300ms }
                  reassigning:
                    listen: 127.0.5.3:0
                    service: tcp
                    farm: half-dead
                """.formatted(ALPHA, BETA, http(ALPHA, "alpha-80"), http(BETA, "beta-80"),
                http(ALPHA, "alpha-443"), http(BETA, "beta-443"), SILENT, silent(SILENT), closedPort("127.0.5.14"));
        node = Nodes.started(yaml);
    }

    @AfterEach
    void stop() throws Exception {
        if (silent != null) {
            silent.close();
        }
        for (Socket s : held) {
            s.close();
        }
        if (node != null) {
            node.close();
        }
        backends.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private int http(String address, String name) throws Exception {
        HttpServer server = backends.createHttpServer().requestHandler(request -> request.response().end(name))
                .listen(0, address).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return server.actualPort();
    }

    /**
     * Accepts connections and never writes nor closes them, not even its half after the client's FIN
     * (a plain socket, unlike Netty's, does not close on end of input): only the director's timers
     * end them.
     */
    private int silent(String address) throws Exception {
        silent = new ServerSocket(0, 50, InetAddress.getByName(address));
        Thread acceptor = new Thread(() -> {
            try {
                while (true) {
                    held.add(silent.accept());
                }
            } catch (IOException closed) {
                // the test is over
            }
        }, "silent-real");
        acceptor.setDaemon(true);
        acceptor.start();
        return silent.getLocalPort();
    }

    /** A port nothing listens on: connections to it are refused (RST). */
    private static int closedPort(String address) throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(address))) {
            return s.getLocalPort();
        }
    }

    /** GET / through a virtual server with curl bound to {@code from}; the body. */
    private String curl(String from, String virtualServer) throws Exception {
        InetSocketAddress vip = node.director().localAddress(virtualServer);
        Process curl = new ProcessBuilder("curl", "-s", "--max-time", "5", "--interface", from,
                "http://" + vip.getAddress().getHostAddress() + ":" + vip.getPort() + "/").redirectErrorStream(true).start();
        assertThat(curl.waitFor(10, TimeUnit.SECONDS)).isTrue();
        return new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private Socket open(String from, String virtualServer) throws Exception {
        Socket socket = new Socket();
        held.add(socket);
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(node.director().localAddress(virtualServer));
        return socket;
    }

    private double closed(String virtualServer, String reason) {
        return node.director().virtualServers().get(virtualServer).metrics().closedCount(reason);
    }

    @Test
    void aSubnetsPort80And443ConnectionsShareOneHost() throws Exception {
        // Round robin on web80: the first /28 to alpha, the second to beta.
        assertThat(curl("127.0.5.17", "http")).isEqualTo("alpha-80");
        assertThat(curl("127.0.5.33", "http")).isEqualTo("beta-80");
        // On web443 round robin would now give alpha then beta; the group sends each /28 to the host
        // its port-80 connection went to, whichever client of the subnet asks.
        assertThat(curl("127.0.5.34", "https")).isEqualTo("beta-443");
        assertThat(curl("127.0.5.18", "https")).isEqualTo("alpha-443");
        // And the other way: a subnet first seen on 443 is bound there, and its port-80 traffic follows.
        String first = curl("127.0.5.49", "https");
        assertThat(first).isIn("alpha-443", "beta-443");
        for (int i = 0; i < 3; i++) {
            assertThat(curl("127.0.5.5" + i, "http")).isEqualTo(first.replace("443", "80"));
        }
    }

    @Test
    void theBindingLivesForItsIdleTimeAfterTheLastConnectionEnds() throws Exception {
        Socket open = open("127.0.5.65", "http"); // round robin's first turn: alpha
        await().atMost(Duration.ofSeconds(5))
                .until(() -> node.director().farms().farm("web80").reals().get(0).connections() == 1);
        // Longer than the sticky idle time (1 s) with the connection open and nothing else from the
        // subnet: the open connection keeps the binding.
        await().pollDelay(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(3)).until(open::isConnected);
        assertThat(curl("127.0.5.66", "http")).isEqualTo("alpha-80");

        open.close();
        // Once the last connection has ended and the idle time has passed, the binding is gone and
        // round robin takes its next turn (beta) for the subnet.
        await().pollDelay(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(curl("127.0.5.67", "http")).isEqualTo("beta-80");
    }

    @Test
    void anIdleConnectionIsClosedAfterTheIdleTime() throws Exception {
        Socket socket = open("127.0.5.81", "timed");
        socket.setSoTimeout(5000);
        long started = System.nanoTime();
        assertThat(socket.getInputStream().read()).isEqualTo(-1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(250));
        await().atMost(Duration.ofSeconds(2)).until(() -> closed("timed", "idle") == 1);
        assertThat(closed("timed", "delay")).isZero();
    }

    @Test
    void aHalfClosedConnectionGetsTheDelayTimeToFinish() throws Exception {
        Socket socket = open("127.0.5.82", "lingering");
        socket.setSoTimeout(5000);
        InputStream in = socket.getInputStream();
        socket.getOutputStream().write("bye".getBytes(StandardCharsets.US_ASCII));
        socket.shutdownOutput(); // the real never closes its half: the delay timer ends the connection
        assertThat(in.read()).isEqualTo(-1);
        await().atMost(Duration.ofSeconds(2)).until(() -> closed("lingering", "delay") == 1);
        assertThat(closed("lingering", "idle")).isZero();
    }

    @Test
    void aConnectionARealRefusesIsReassignedAndTheRealFails() throws Exception {
        // Round robin's first turn is the real that refuses: the client is served by the next one.
        assertThat(curl("127.0.5.90", "reassigning")).isEqualTo("alpha-80");
        var dead = node.director().farms().farm("half-dead").reals().get(0);
        assertThat(dead.unanswered()).isEqualTo(1);
        assertThat(dead.state()).isEqualTo(io.switchboard.director.real.RealState.FAILED);
        assertThat(curl("127.0.5.91", "reassigning")).isEqualTo("alpha-80");
    }
}
