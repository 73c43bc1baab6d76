package io.switchboard.director.gtp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2NodeLoad;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.spi.EngineReals;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.FarmViews;
import io.switchboard.director.spi.RealView;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * GTPv2 load and overload control from the farm (TS 29.274 §12.2, §12.3): the node-level Load Control
 * Information and Overload Control Information in the reals' answers become the reals' dynamic
 * weights (set through the engine, {@link EngineReals#weigh}), which the predictors follow as they
 * follow DFP weights.
 *
 * <p>A real's weight is its static weight × {@value #SCALE} × (100 − load metric) % × (100 − overload
 * reduction metric) %, rounded, at least 1 while the product is above 0, at most 255; a real at load
 * 100 or asked to shed 100 % gets weight 0 (DFP_THROTTLED: no new subscribers, bound ones still
 * served). The scale keeps a resolution of a tenth of a static weight unit; every real of a farm in
 * which one real reports is weighed on it (those that report nothing at load 0), and the static
 * weights come back when no real of the farm has figures left. A figure replaces the previous one of
 * the same real only when its sequence number is newer; an overload figure lapses after its Period
 * of Validity. Outcomes are counted in {@code switchboard_gtp_load_control_total{vserver,ie,result}}
 * ({@code ie} load or overload; {@code result} applied, stale or malformed).
 *
 * <p>Answers arrive on every event loop: updates, which are rare, take this object's lock; answers
 * without figures and the expiry check on the request path take none.
 */
final class GtpLoadFeedback {

    static final int SCALE = 10;
    private static final int MAX_WEIGHT = 255;

    /** The latest figures of one real. */
    private static final class Figures {
        boolean hasLoad;
        long loadSequence;
        int load;
        boolean hasOverload;
        /** Whether {@link #overloadSequence} holds one: it outlives a lapsed figure. */
        boolean overloadSeen;
        long overloadSequence;
        int reduction;
        long overloadUntilNanos;

        boolean empty() {
            return !hasLoad && !hasOverload;
        }
    }

    private final FarmViews farms;
    private final EngineReals reals;
    private final Ticker ticker;
    private final RateLimitedLog log;
    private final Map<RealView, Figures> figures = new HashMap<>();
    /** Farms whose weights this feedback has set, to give them their static weights back. */
    private final Set<String> weighed = new HashSet<>();
    /** When the earliest overload figure lapses; Long.MAX_VALUE when none will. */
    private volatile long nextLapseNanos = Long.MAX_VALUE;
    private final Counter loadApplied;
    private final Counter loadStale;
    private final Counter overloadApplied;
    private final Counter overloadStale;
    private final Counter malformed;

    GtpLoadFeedback(FarmViews farms, EngineReals reals, Ticker ticker, MeterRegistry registry, String virtualServer) {
        this.farms = farms;
        this.reals = reals;
        this.ticker = ticker;
        this.log = new RateLimitedLog(LoggerFactory.getLogger(GtpLoadFeedback.class), Duration.ofSeconds(10), ticker);
        this.loadApplied = counter(registry, virtualServer, "load", "applied");
        this.loadStale = counter(registry, virtualServer, "load", "stale");
        this.overloadApplied = counter(registry, virtualServer, "overload", "applied");
        this.overloadStale = counter(registry, virtualServer, "overload", "stale");
        this.malformed = counter(registry, virtualServer, "any", "malformed");
    }

    private static Counter counter(MeterRegistry registry, String vserver, String ie, String result) {
        return GtpMeters.LOAD_CONTROL.counter().tag("vserver", vserver).tag("ie", ie).tag("result", result)
                .register(registry);
    }

    /** Reads the figures of a GTPv2 answer from {@code real}; one that does not parse is counted and ignored. */
    void observe(ByteBuf buf, GtpV2Header header, RealView real) {
        GtpV2NodeLoad reported;
        try {
            reported = GtpV2NodeLoad.of(buf, header);
        } catch (DecodeException e) {
            malformed.increment();
            log.warn("real {}: load/overload control information ignored: {}", real.id(), e.getMessage());
            return;
        }
        if (reported != null) {
            apply(real, reported, ticker.nanos());
        }
    }

    private synchronized void apply(RealView real, GtpV2NodeLoad reported, long now) {
        Figures f = figures.computeIfAbsent(real, r -> new Figures());
        boolean changed = false;
        GtpV2NodeLoad.Load load = reported.load();
        if (load != null) {
            if (!f.hasLoad || GtpV2NodeLoad.newer(load.sequence(), f.loadSequence)) {
                changed |= !f.hasLoad || f.load != load.loadMetric();
                f.hasLoad = true;
                f.loadSequence = load.sequence();
                f.load = load.loadMetric();
                loadApplied.increment();
            } else {
                loadStale.increment();
            }
        }
        GtpV2NodeLoad.Overload overload = reported.overload();
        if (overload != null) {
            if (!f.overloadSeen || GtpV2NodeLoad.newer(overload.sequence(), f.overloadSequence)) {
                changed |= !f.hasOverload || f.reduction != overload.reductionMetric();
                f.hasOverload = true;
                f.overloadSeen = true;
                f.overloadSequence = overload.sequence();
                f.reduction = overload.reductionMetric();
                long validity = overload.validityMillis();
                f.overloadUntilNanos = validity == GtpV2NodeLoad.INFINITE ? Long.MAX_VALUE
                        : now + Duration.ofMillis(validity).toNanos();
                overloadApplied.increment();
                scheduleLapse();
            } else {
                overloadStale.increment();
            }
        }
        if (changed) {
            reweigh(real.farm());
        }
        lapse(now);
    }

    /** Drops overload figures whose Period of Validity has passed; cheap when none is due. */
    void lapseIfDue() {
        long due = nextLapseNanos;
        if (due != Long.MAX_VALUE && ticker.nanos() - due >= 0) {
            synchronized (this) {
                lapse(ticker.nanos());
            }
        }
    }

    private void lapse(long now) {
        if (nextLapseNanos == Long.MAX_VALUE || now - nextLapseNanos < 0) {
            return;
        }
        Set<String> farmsChanged = new HashSet<>();
        for (Map.Entry<RealView, Figures> e : figures.entrySet()) {
            Figures f = e.getValue();
            if (f.hasOverload && f.overloadUntilNanos != Long.MAX_VALUE && now - f.overloadUntilNanos >= 0) {
                // The sequence number stays: an older figure retransmitted later must not revive it.
                f.hasOverload = false;
                farmsChanged.add(e.getKey().farm());
            }
        }
        scheduleLapse();
        farmsChanged.forEach(this::reweigh);
    }

    private void scheduleLapse() {
        long next = Long.MAX_VALUE;
        for (Figures f : figures.values()) {
            if (f.hasOverload && f.overloadUntilNanos != Long.MAX_VALUE
                    && (next == Long.MAX_VALUE || f.overloadUntilNanos - next < 0)) {
                next = f.overloadUntilNanos;
            }
        }
        nextLapseNanos = next;
    }

    /** The real restarted: its figures (and their sequence numbers, which restart too) are gone. */
    synchronized void forget(RealView real) {
        if (figures.remove(real) != null) {
            scheduleLapse();
            reweigh(real.farm());
        }
    }

    private void reweigh(String farmName) {
        FarmView farm = farms.farm(farmName);
        if (farm == null) {
            return;
        }
        boolean anyFigures = false;
        for (RealView r : farm.reals()) {
            Figures f = figures.get(r);
            anyFigures |= f != null && !f.empty();
        }
        if (!anyFigures && !weighed.remove(farmName)) {
            return; // never weighed here: leave the weights (configured, or set through the API) alone
        }
        if (anyFigures) {
            weighed.add(farmName);
        }
        for (RealView r : farm.reals()) {
            Figures f = figures.get(r);
            int w = !anyFigures ? r.staticWeight()
                    : weight(r.staticWeight(), f != null && f.hasLoad ? f.load : 0, f != null && f.hasOverload ? f.reduction : 0);
            reals.weigh(r, w);
        }
    }

    /** A real's weight from its static weight, load metric and overload reduction metric (percentages). */
    static int weight(int staticWeight, int load, int reduction) {
        long available = (long) (100 - load) * (100 - reduction); // 0..10000
        if (staticWeight == 0 || available == 0) {
            return 0;
        }
        long w = Math.round(staticWeight * SCALE * available / 10_000.0);
        return (int) Math.max(1, Math.min(MAX_WEIGHT, w));
    }
}
