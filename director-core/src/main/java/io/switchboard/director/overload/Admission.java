package io.switchboard.director.overload;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Pace;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.OverloadConfig;
import java.net.InetAddress;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A virtual server's admission control ({@code overload:}), shared by its lanes and by what-if's
 * offline lane: whether a request the plug-in decided is taken, by what it means to the protocol
 * ({@code Decision.Direct.session}, the plug-in's own classification). New work passes the peer's
 * rate, the virtual server's rate, and the capacity down to the reserve kept for session work;
 * session work passes the capacity alone, so the director saturated refuses creates and
 * Access-Requests first and sheds Updates, Deletes and accounting last.
 */
public final class Admission {

    private static final Logger LOG = LoggerFactory.getLogger(Admission.class);

    /** How long after its last refusal the virtual server still reports itself overloaded. */
    static final long OVERLOADED_FOR = Duration.ofSeconds(1).toNanos();

    /** Which limit refused a request: the tag of its counter. */
    public enum Limit {
        PEER_RATE("peer-rate"), NEW_RATE("new-rate"), CAPACITY("capacity");

        private final String tag;

        Limit(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** Takes everything: a virtual server without an {@code overload} section. */
    public static final Admission NONE = new Admission();

    private final String name;
    private final PeerRates peers;
    private final RateCell newWork;
    private final RateCell capacity;
    /** The share of the capacity's burst new work may use. */
    private final double newShare;
    private final Map<Limit, Counter> refusedNew = new EnumMap<>(Limit.class);
    private final Counter shedSessions;
    private final Ticker ticker;
    private final Pace logPace = new Pace(Duration.ofSeconds(10));
    private volatile long lastRefusal = Long.MIN_VALUE;

    private Admission() {
        this.name = null;
        this.peers = null;
        this.newWork = null;
        this.capacity = null;
        this.newShare = 1;
        this.shedSessions = null;
        this.ticker = Ticker.SYSTEM;
    }

    private Admission(String vserver, String service, OverloadConfig config, MeterRegistry registry, Ticker ticker) {
        long burst = config.burst().toNanos();
        this.name = vserver;
        this.ticker = ticker;
        this.peers = config.newPerPeerPerSecond() > 0 ? new PeerRates(config.newPerPeerPerSecond(), burst) : null;
        this.newWork = config.newPerSecond() > 0 ? new RateCell(config.newPerSecond(), burst) : null;
        this.capacity = config.capacityPerSecond() > 0 ? new RateCell(config.capacityPerSecond(), burst) : null;
        this.newShare = 1 - config.sessionReservePercent() / 100.0;
        for (Limit limit : Limit.values()) {
            refusedNew.put(limit, refused(registry, vserver, service, "new", limit));
        }
        this.shedSessions = refused(registry, vserver, service, "session", Limit.CAPACITY);
        Gauge.builder("switchboard.overload.active", this, a -> a.overloaded(a.ticker.nanos()) ? 1 : 0)
                .description("1 while the virtual server refuses or sheds work (overload: section), else 0")
                .tags("vserver", vserver, "service", service).register(registry);
    }

    private static Counter refused(MeterRegistry registry, String vserver, String service, String work, Limit limit) {
        return Counter.builder("switchboard.overload.refused")
                .description("Requests refused (new work) or shed (session work) by the overload section's limits")
                .tags("vserver", vserver, "service", service, "work", work, "limit", limit.tag()).register(registry);
    }

    /** The virtual server's admission control, or {@link #NONE} when its section sets no limit. */
    public static Admission of(String vserver, String service, OverloadConfig config, MeterRegistry registry,
            Ticker ticker) {
        return config.enabled() ? new Admission(vserver, service, config, registry, ticker) : NONE;
    }

    /**
     * Whether a request is taken: null when it is, else the limit that refused it (counted; the caller
     * answers or drops it).
     *
     * @param session the plug-in's classification: work for a subscriber the farm already serves
     * @param peer    the sender, for the per-peer rate of new work
     */
    public Limit admit(boolean session, InetAddress peer, long now) {
        if (this == NONE) {
            return null;
        }
        Limit refused = session ? shedSession(now) : refuseNew(peer, now);
        if (refused != null) {
            lastRefusal = now;
            (session ? shedSessions : refusedNew.get(refused)).increment();
            if (logPace.due(now)) {
                LOG.warn("virtual server {}: overloaded, {} refused by its {} limit (shedding new work first;"
                        + " switchboard_overload_refused_total counts every one)", name,
                        session ? "session work" : "new work", refused.tag());
            }
        }
        return refused;
    }

    private Limit shedSession(long now) {
        return capacity == null || capacity.take(now) ? null : Limit.CAPACITY;
    }

    private Limit refuseNew(InetAddress peer, long now) {
        if (peers != null && peer != null && !peers.take(peer, now)) {
            return Limit.PEER_RATE;
        }
        if (newWork != null && !newWork.take(now)) {
            return Limit.NEW_RATE;
        }
        return capacity == null || capacity.take(now, newShare) ? null : Limit.CAPACITY;
    }

    /** Whether it refused anything within the last second: {@code /health} says DEGRADED. */
    public boolean overloaded(long now) {
        long last = lastRefusal;
        return last != Long.MIN_VALUE && now - last < OVERLOADED_FOR;
    }

    /** Whether it limits anything. */
    public boolean enabled() {
        return this != NONE;
    }
}
