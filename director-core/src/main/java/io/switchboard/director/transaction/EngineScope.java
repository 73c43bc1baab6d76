package io.switchboard.director.transaction;

import io.switchboard.codec.DropReason;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.metrics.VirtualServerMetrics;
import java.net.InetSocketAddress;

/**
 * What every part of one engine shares: the virtual server (its selector, configuration and
 * counters), the clock, the rate-limited log and whoever listens to the outcomes.
 *
 * @param log    per-datagram warnings (a flood must not flood the log)
 * @param events told what became of each datagram ({@link EngineEvents#NONE} for a live lane)
 */
public record EngineScope(VirtualServer virtualServer, Ticker ticker, RateLimitedLog log, EngineEvents events) {

    public VirtualServerMetrics metrics() {
        return virtualServer.metrics();
    }

    public String name() {
        return virtualServer.name();
    }

    /** Counts, logs (rate-limited) and tells a dropped datagram. */
    public void drop(DropReason reason, InetSocketAddress client, String detail) {
        virtualServer.metrics().dropped(reason);
        log.warn("virtual server {}: dropped datagram from {}: {}{}", virtualServer.name(), client, reason,
                detail == null ? "" : " (" + detail + ")");
        events.dropped(reason);
    }
}
