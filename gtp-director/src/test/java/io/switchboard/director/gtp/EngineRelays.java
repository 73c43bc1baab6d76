package io.switchboard.director.gtp;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.RealSelector;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.real.Farms;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import io.switchboard.director.transaction.RelayedRequests;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.slf4j.LoggerFactory;

/**
 * The engine's side of a {@code gtp-inspect} virtual server without sockets, for the plug-in's tests:
 * a datagram at the virtual address goes through the engine's {@link Intake} (so a real's request and
 * its answer go through the engine's {@link RelayedRequests}, as live), and what it sends from the
 * virtual address is caught.
 */
final class EngineRelays {

    private final EngineScope scope;
    private final Intake intake;
    private final RelayedRequests relayed;
    private InetSocketAddress sentTo;

    EngineRelays(VirtualServerConfig config, GtpInspectPlugin plugin, Farms farms, Ticker ticker,
            MeterRegistry registry, NodeSlot slot, SharedTables tables) {
        this.relayed = new RelayedRequests(plugin.realRequests(), slot, tables, config.name(),
                config.responseTimeout().toNanos(), plugin.transactionIdBits(), ticker.nanos());
        VirtualServer vs = new VirtualServer(config, plugin, new RealSelector(farms, farms.farm(config.farm()), null),
                new VirtualServerMetrics(registry, config.name(), config.service()), relayed);
        this.scope = new EngineScope(vs, ticker, new RateLimitedLog(LoggerFactory.getLogger(EngineRelays.class),
                Duration.ofSeconds(10), ticker), EngineEvents.NONE);
        this.intake = new Intake(scope);
    }

    /**
     * A datagram from {@code sender} at the virtual address: where the engine relayed it (rewritten
     * in place), or null when it was not relayed (directed to a real, dropped).
     */
    InetSocketAddress relay(ByteBuf datagram, InetSocketAddress sender) {
        sentTo = null;
        Decision.Direct direct = intake.admit(datagram, sender, UnpooledByteBufAllocator.DEFAULT, (sent, to) -> {
            sent.release();
            sentTo = to;
        });
        return direct == null ? sentTo : null;
    }

    /** The engine's once-a-second housekeeping of relayed requests. */
    void housekeep(long now) {
        relayed.housekeep(now, scope);
    }
}
