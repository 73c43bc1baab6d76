package io.switchboard.director.gtp;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One director node's {@code gtp-inspect} plug-in without a network, driven as the engine drives it:
 * its own farms (its own {@link RealServer}s, as on another machine), clock, cluster slot and shared
 * tables. Two of them over the same tables are two nodes of a cluster.
 */
final class GtpInspectNode {

    static final InetSocketAddress GGSN_1 = new InetSocketAddress("127.0.7.31", 2123);
    static final InetSocketAddress GGSN_2 = new InetSocketAddress("127.0.7.32", 2123);
    static final InetSocketAddress SGSN = new InetSocketAddress("127.0.7.20", 2123);
    static final Duration IDLE = Duration.ofSeconds(10);

    final GtpInspectPlugin plugin;
    final Farms farms;
    final AtomicLong clock;
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final EngineRelays engine;

    /** A node whose housekeeping runs on the caller (the clock is driven by hand, sweeps with it). */
    GtpInspectNode(SharedTables tables, NodeSlot slot, AtomicLong clock) throws Exception {
        this(tables, slot, clock, GtpSweeper.onCaller());
    }

    GtpInspectNode(SharedTables tables, NodeSlot slot, AtomicLong clock, GtpSweeper sweeper) throws Exception {
        this.clock = clock;
        this.farms = new Farms(Map.of("ggsn", new FarmConfig("ggsn", PredictorKind.LEASTCONNS,
                new FailureDetection(100, 1, Duration.ofMinutes(1)),
                List.of(new RealConfig(GGSN_1.getAddress(), GGSN_1.getPort(), 1, OptionalInt.empty(), true),
                        new RealConfig(GGSN_2.getAddress(), GGSN_2.getPort(), 1, OptionalInt.empty(), true)),
                Optional.empty())));
        GtpOptions options = new GtpOptions(Set.of(1, 2), 2, GtpOptions.DEFAULT_RESOURCE_CAUSES_V1,
                GtpOptions.DEFAULT_RESOURCE_CAUSES_V2, List.of(), GtpV0TidOrder.GSM_09_60, 0, Optional.empty(), true,
                IDLE, List.of());
        VirtualServerConfig config = new VirtualServerConfig("gtp-c", new Endpoint(InetAddress.getByName("127.0.7.10"),
                2123), "gtp-inspect", "ggsn", Optional.empty(), Duration.ofSeconds(5), Duration.ofMinutes(1),
                4096, true, options);
        this.plugin = new GtpInspectPlugin(options, config.listen().address(), sweeper);
        plugin.attach(new PluginContext(config, null, farms, clock::get, registry, slot, tables));
        this.engine = new EngineRelays(config, plugin, farms, clock::get, registry, slot, tables);
    }

    /** A datagram at this node's virtual address: where the engine relayed it, or null. */
    InetSocketAddress relay(ByteBuf datagram, InetSocketAddress sender) {
        return engine.relay(datagram, sender);
    }

    /** This node's housekeeping: the plug-in's and the engine's relayed requests'. */
    void housekeep() {
        plugin.housekeep(clock.get());
        engine.housekeep(clock.get());
    }

    double counter(String name) {
        return registry.get(name).counter().count();
    }

    RealServer real(InetSocketAddress address) {
        return farms.farm("ggsn").reals().stream().filter(r -> r.address().equals(address)).findFirst().orElseThrow();
    }

    interface Use<T> {
        T apply(ByteBuf buf) throws Exception;
    }

    /** Runs {@code use} on a buffer of {@code bytes}; the bytes reflect what it rewrote. */
    static <T> T with(byte[] bytes, Use<T> use) throws Exception {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        try {
            return use.apply(buf);
        } finally {
            buf.release();
        }
    }

    /** The session a create made through this node: what the real and the requester were told. */
    record Created(long realFacingTeid, long directorTeid) {
    }

    /** A v1 create from the SGSN answered by {@code ggsn} (its TEID-C {@code ggsnTeid}) through this node. */
    Created create(String imsi, int directorSequence, RealServer ggsn, long ggsnTeid) throws Exception {
        byte[] request = GtpMessages.v1CreateRequest(imsi, 0x0100, 5, SGSN.getAddress().getAddress());
        return with(request, buf -> {
            var context = plugin.prepareRequest(buf, directorSequence, ggsn, null);
            long realFacing = new GtpMessageView().wrap(buf).senderControlPlane().teid();
            byte[] answer = GtpMessages.v1CreateResponse(directorSequence, 128, realFacing, ggsnTeid,
                    ggsn.address().getAddress().getAddress());
            long director = with(answer, b -> {
                plugin.inspectResponse(b, ggsn, context);
                return new GtpMessageView().wrap(b).senderControlPlane().teid();
            });
            return new Created(realFacing, director);
        });
    }
}
