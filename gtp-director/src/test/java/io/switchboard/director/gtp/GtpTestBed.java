package io.switchboard.director.gtp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.DatagramService;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * What the GTP integration tests share: farms of {@link GtpResponder}s (weight 1 each) behind GTP
 * virtual servers (sticky by IMSI for an hour, 5 s response timeout) of a {@link Director} on its own
 * Vert.x, and the teardown of all of it.
 */
final class GtpTestBed implements AutoCloseable {

    final Map<String, List<GtpResponder>> farms;
    final Director director;
    private final Vertx vertx;

    private GtpTestBed(Map<String, List<GtpResponder>> farms, Director director, Vertx vertx) {
        this.farms = farms;
        this.director = director;
        this.vertx = vertx;
    }

    /** A farm of the responders; a real failed in band stays failed for {@code retry}. */
    static FarmConfig farm(String name, PredictorKind predictor, Duration retry, List<GtpResponder> responders) {
        List<RealConfig> reals = new ArrayList<>();
        for (GtpResponder r : responders) {
            reals.add(new RealConfig(r.socket.getLocalAddress(), r.port(), 1, OptionalInt.empty(), true));
        }
        return new FarmConfig(name, predictor, new FailureDetection(100, 1, retry), reals, Optional.empty());
    }

    /** A virtual server of {@code service} in front of {@code farm}, sticky by IMSI. */
    static VirtualServerConfig server(String name, InetSocketAddress listen, String service, String farm,
            GtpOptions options) {
        return new VirtualServerConfig(name, new Endpoint(listen.getAddress(), listen.getPort()), service, farm,
                Optional.of(new StickyConfig(List.of(GtpModule.IMSI), Duration.ofHours(1), OptionalInt.empty(), 1000)),
                Duration.ofSeconds(5), Duration.ofMinutes(1), 4096, true, options);
    }

    /**
     * Starts the director; on failure closes the responders.
     *
     * @param farms   the responders of each farm (closed with the bed)
     * @param configs the farms' configurations, by name
     */
    static GtpTestBed start(Map<String, List<GtpResponder>> farms, Map<String, FarmConfig> configs,
            Map<String, VirtualServerConfig> servers, DatagramService service, MeterRegistry registry)
            throws Exception {
        Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT,
                new LinkedHashMap<>(configs), servers), v -> service, registry, Ticker.SYSTEM);
        Vertx vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        GtpTestBed bed = new GtpTestBed(farms, director, vertx);
        try {
            director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            bed.close();
            throw e;
        }
        return bed;
    }

    InetSocketAddress vip(String server) {
        return director.localAddress(server);
    }

    @Override
    public void close() throws Exception {
        try {
            director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            for (List<GtpResponder> responders : farms.values()) {
                for (GtpResponder r : responders) {
                    r.close();
                }
            }
        }
    }
}
