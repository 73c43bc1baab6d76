package io.switchboard.director.testing;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.transport.Transports;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A director started on its own Vert.x (native transport where there is one) with one virtual server
 * in front of one farm of reals on 127.0.0.1: what the plug-ins' integration tests run against.
 */
public final class RunningDirector implements AutoCloseable {

    /** In-band failure detection that never fails a real by accident in a test. */
    public static final FailureDetection LENIENT = new FailureDetection(100, 1, Duration.ofMinutes(1));

    private final Director director;
    private final Vertx vertx;

    private RunningDirector(Director director, Vertx vertx) {
        this.director = director;
        this.vertx = vertx;
    }

    /** A weighted round robin farm of reals on 127.0.0.1, one per port, with the given weights. */
    public static FarmConfig loopbackFarm(String name, int[] ports, int[] weights) {
        List<RealConfig> reals = new ArrayList<>();
        for (int i = 0; i < ports.length; i++) {
            reals.add(new RealConfig(InetAddress.getLoopbackAddress(), ports[i], weights[i], OptionalInt.empty(), true));
        }
        return new FarmConfig(name, PredictorKind.ROUNDROBIN, LENIENT, reals, Optional.empty());
    }

    /** Starts {@code virtualServer} in front of {@code farm}, served by {@code service}'s plug-in. */
    public static RunningDirector start(VirtualServerConfig virtualServer, FarmConfig farm, DatagramService service,
            MeterRegistry registry) throws Exception {
        return start(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                Map.of(farm.name(), farm), Map.of(virtualServer.name(), virtualServer)), service, registry);
    }

    /** Starts every virtual server of {@code config}, all served by {@code service}'s plug-in. */
    public static RunningDirector start(SwitchboardConfig config, DatagramService service, MeterRegistry registry)
            throws Exception {
        Director director = new Director(config, v -> service, registry, Ticker.SYSTEM);
        // The configuration's transport (refused where unavailable), else epoll where available, as a node.
        Vertx vertx = Transports.forNode(config.transport()).newVertx(new VertxOptions());
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return new RunningDirector(director, vertx);
    }

    public Director director() {
        return director;
    }

    /** The bound address of the virtual server. */
    public InetSocketAddress vip(String virtualServer) {
        return director.localAddress(virtualServer);
    }

    @Override
    public void close() throws Exception {
        director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
