package io.switchboard.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.ha.HaOptions;
import io.switchboard.director.ha.HaService;
import io.switchboard.pcap.Replay;
import io.switchboard.pcap.SignalingProtocol;
import io.switchboard.pcap.Template;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * Registration Requests per second through the Home Agent Director beside the same requests sent
 * straight to the home agent, as a ratio (issue 6). One stand-in home agent answers each RRQ with an
 * RRP; the load generator of {@code switchboard replay} ({@link Replay}, closed loop) sends from
 * {@code clients} sockets, each keeping {@code window} requests in flight, every one with a new
 * Identification, for {@code seconds} against the agent directly and then through the director
 * ({@code relay-replies: true}). Both rates share the agent, so the ratio is the
 * director's cost, not the agent's.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.switchboard.bench.HaDirectorRate [seconds] [clients] [window]</pre>
 */
public final class HaDirectorRate {

    private HaDirectorRate() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int window = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        try (HomeAgent agent = new HomeAgent()) {
            InetSocketAddress direct = new InetSocketAddress("127.0.0.1", agent.socket.getLocalPort());
            run(direct, 1, clients, window); // warm-up
            double directRate = run(direct, seconds, clients, window);

            // -Dtransport=epoll|io_uring|nio as the node's `transport` key (refused where unavailable).
            Vertx vertx = io.switchboard.director.transport.Transports.forNode(
                    Optional.ofNullable(System.getProperty("transport"))
                            .flatMap(io.switchboard.director.config.TransportKind::fromConfigName))
                    .newVertx(new VertxOptions());
            FarmConfig farm = new FarmConfig("ha", PredictorKind.ROUNDROBIN,
                    new FailureDetection(1_000_000, 1, Duration.ofMinutes(1)),
                    List.of(new RealConfig(InetAddress.getByName("127.0.0.1"), direct.getPort(), 1,
                            OptionalInt.empty(), true)), Optional.empty());
            VirtualServerConfig vs = new VirtualServerConfig("home-agents",
                    new Endpoint(InetAddress.getByName("127.0.0.1"), 0), "ipmobile", "ha", Optional.empty(),
                    Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, new HaOptions(true, false));
            Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                    Map.of("ha", farm), Map.of("home-agents", vs)), v -> new HaService(), new SimpleMeterRegistry(),
                    Ticker.SYSTEM);
            director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            InetSocketAddress vip = director.localAddress("home-agents");
            run(vip, 1, clients, window); // warm-up
            double directedRate = run(vip, seconds, clients, window);
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

            System.out.printf("RRQ/RRP per second, %d clients x %d in flight, %d s each, %d cores:%n", clients, window,
                    seconds, Runtime.getRuntime().availableProcessors());
            System.out.printf("  direct to the home agent : %,10.0f%n", directRate);
            System.out.printf("  through the director     : %,10.0f%n", directedRate);
            System.out.printf("  ratio                    : %10.2f%n", directedRate / directRate);
        }
    }

    /**
     * Replies per second that {@code clients} sockets of the load generator ({@code switchboard
     * replay}'s engine, closed loop, {@code window} requests in flight per socket) get from
     * {@code target} in {@code seconds}. Each RRQ has a new Identification and one of 10,000 home
     * addresses.
     */
    private static double run(InetSocketAddress target, int seconds, int clients, int window) throws Exception {
        Replay replay = new Replay(target, null, Duration.ofMillis(200), null, new Replay.Lanes(clients, clients * window));
        Replay.Report report = replay.run(SignalingProtocol.MIP, Duration.ofSeconds(seconds), TEMPLATE);
        return report.answered() / (double) seconds;
    }

    /** A Registration Request (RFC 5944 §3.3): lifetime 1800, home address 10.99.0.0, home agent, care-of address. */
    private static final Template TEMPLATE = template();

    private static Template template() {
        byte[] rrq = new byte[24];
        ByteBuffer.wrap(rrq).put((byte) 1).put((byte) 0).putShort((short) 1800).putInt(0x0a630000).putInt(0x7f00000a)
                .putInt(0xc0000201);
        return new Template(new Replay.Requests(434, SignalingProtocol.MIP,
                List.of(new Replay.Request(1, java.time.Instant.EPOCH, rrq))),
                List.of(Template.Variation.parse("msid:10000")), null);
    }

    /** Answers every RRQ with an RRP (code 0, same home address, home agent and Identification). */
    private static final class HomeAgent implements AutoCloseable {
        final DatagramSocket socket;
        private final Thread thread;

        HomeAgent() throws IOException {
            socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
            thread = new Thread(this::serve, "home-agent");
            thread.setDaemon(true);
            thread.start();
        }

        private void serve() {
            DatagramPacket in = new DatagramPacket(new byte[256], 256);
            byte[] rrp = new byte[20];
            ByteBuffer out = ByteBuffer.wrap(rrp);
            while (!socket.isClosed()) {
                try {
                    socket.receive(in);
                    ByteBuffer req = ByteBuffer.wrap(in.getData(), 0, in.getLength());
                    out.clear();
                    out.put((byte) 3).put((byte) 0).putShort(req.getShort(2)).putInt(req.getInt(4))
                            .putInt(req.getInt(8)).putLong(req.getLong(16));
                    socket.send(new DatagramPacket(rrp, rrp.length, in.getSocketAddress()));
                } catch (IOException e) {
                    // closed
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            socket.close();
            thread.join(2000);
        }
    }
}
