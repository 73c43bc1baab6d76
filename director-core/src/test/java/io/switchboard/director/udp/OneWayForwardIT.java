package io.switchboard.director.udp;

import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.TransactionPlugin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
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
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.testing.ToyPlugin;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests that get no answer ({@link TransactionPlugin#expectsAnswer} false: the toy protocol's
 * requests whose payload is "ack"): forwarded and forgotten, retransmissions to the same real,
 * and never the test request of a READY_TO_TEST real.
 */
class OneWayForwardIT {

    /** The test protocol {@link ToyPlugin}, whose "...;ack" requests expect no answer. */
    static final class AckingToyPlugin extends ToyPlugin {
        @Override
        public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc)
                throws DecodeException {
            Decision.Direct toy = (Decision.Direct) super.decide(datagram, sender, alloc);
            boolean ack = datagram.toString(datagram.readerIndex() + 3, datagram.readableBytes() - 3,
                    StandardCharsets.US_ASCII).endsWith(";ack");
            return ack ? toy.oneWay() : toy;
        }
    }

    private TransactionUpstreamIT.ToyServer server;
    private Vertx vertx;
    private Director director;
    private InetSocketAddress vip;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        server = new TransactionUpstreamIT.ToyServer();
        FarmConfig farm = new FarmConfig("toys", PredictorKind.ROUNDROBIN, new FailureDetection(1, 1, Duration.ofMillis(300)),
                List.of(new RealConfig(InetAddress.getByName("127.0.0.1"), server.port(), 1, OptionalInt.empty(), true)),
                Optional.empty());
        VirtualServerConfig vs = new VirtualServerConfig("toy", new Endpoint(InetAddress.getByName("127.0.0.1"), 0),
                "asn", "toys", Optional.empty(), Duration.ofMillis(500), Duration.ofMinutes(1), 2048, true);
        DatagramService service = ToyPlugin.service("asn", AckingToyPlugin::new);
        director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of("toys", farm), Map.of("toy", vs)), v -> service, registry, Ticker.SYSTEM);
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vip = director.localAddress("toy");
    }

    @AfterEach
    void stop() throws Exception {
        director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        server.close();
    }

    private void send(DatagramSocket socket, int id, String text) throws Exception {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[3 + body.length];
        out[0] = 'Q';
        out[1] = (byte) (id >> 8);
        out[2] = (byte) id;
        System.arraycopy(body, 0, out, 3, body.length);
        socket.send(new DatagramPacket(out, out.length, vip));
    }

    @Test
    void aRequestWithoutAnswerNeitherExpiresNorTestsAFailedReal() throws Exception {
        RealServer real = director.farms().farm("toys").reals().get(0);
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            send(client, 1, "alice;ack");
            send(client, 1, "alice;ack"); // a retransmission: same real, counted as such
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 2);
            assertThat(registry.get("switchboard.requests.retransmitted").counter().count()).isEqualTo(1);

            server.hold = true; // the real stops answering: one unanswered request fails it
            send(client, 2, "bob;hello");
            await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.FAILED);
            await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.READY_TO_TEST);

            send(client, 3, "carol;ack"); // forwarded, but no test: nothing would ever answer it
            await().atMost(Duration.ofSeconds(5)).until(() -> server.ids.size() == 4);
            assertThat(real.state()).isEqualTo(RealState.READY_TO_TEST);

            server.hold = false;
            send(client, 4, "dave;hello"); // the test request, answered
            await().atMost(Duration.ofSeconds(5)).until(() -> real.state() == RealState.OPERATIONAL);
            assertThat(director.virtualServers().get("toy").metrics().expiredCount()).isEqualTo(1);
        }
    }
}
