package io.switchboard.director.gtp;

import io.switchboard.director.spi.EngineReals;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.FarmViews;
import io.switchboard.director.spi.RealView;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open sessions per real, the load a {@code gtp-inspect} virtual server feeds back: each counts as a
 * connection of its real through the engine ({@link EngineReals#sessionOpened}), so that
 * {@code leastconns} balances by open sessions and {@code maxconns} caps them, as IOS SLB does for
 * GTP; and each real's count is the gauge {@code switchboard.gtp.sessions.open}. Alone, every session
 * counts as it opens and ends here; in a cluster the sessions other nodes open and end count at the
 * next {@link #recount}. Changed from every event loop (atomic counts), recounted off them.
 */
final class GtpSessionCounts {

    private final GtpInspectMetrics metrics;
    private final Map<RealView, AtomicInteger> perReal = new ConcurrentHashMap<>();
    private volatile EngineReals reals;

    GtpSessionCounts(GtpInspectMetrics metrics) {
        this.metrics = metrics;
    }

    /** Every real of the farms starts at 0, with its gauge. */
    void attach(EngineReals reals, FarmViews farms) {
        this.reals = reals;
        for (FarmView farm : farms.all()) {
            for (RealView real : farm.reals()) {
                count(real);
            }
        }
    }

    void opened(RealView real) {
        reals.sessionOpened(real);
        count(real).incrementAndGet();
    }

    void closed(RealView real) {
        reals.sessionClosed(real);
        count(real).decrementAndGet();
    }

    /**
     * Sets every real's count (and its connections) to the sessions of {@code sessions} it holds: in
     * a cluster, this node's copy of the shared table, so each node counts the whole cluster's
     * sessions per real.
     */
    void recount(Iterable<GtpSession> sessions) {
        Map<RealView, Integer> counted = new HashMap<>();
        for (GtpSession session : sessions) {
            counted.merge(session.real(), 1, Integer::sum);
        }
        EngineReals engine = reals;
        perReal.forEach((real, count) -> {
            int delta = counted.getOrDefault(real, 0) - count.get();
            count.addAndGet(delta);
            for (; delta > 0; delta--) {
                engine.sessionOpened(real);
            }
            for (; delta < 0; delta++) {
                engine.sessionClosed(real);
            }
        });
    }

    /** Open sessions held by {@code real}. */
    int of(RealView real) {
        AtomicInteger count = perReal.get(real);
        return count == null ? 0 : count.get();
    }

    private AtomicInteger count(RealView real) {
        AtomicInteger count = perReal.get(real);
        return count != null ? count : perReal.computeIfAbsent(real, r -> {
            AtomicInteger fresh = new AtomicInteger();
            metrics.openSessions(r, fresh);
            return fresh;
        });
    }
}
