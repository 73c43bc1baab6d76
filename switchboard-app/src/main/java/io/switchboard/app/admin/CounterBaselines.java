package io.switchboard.app.admin;

import io.switchboard.director.Director;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.RealServer;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * IOS {@code clear ip slb counters}: what the admin API and {@code show} report counts from the last clear,
 * while {@code /metrics} keeps counting from the start (a Prometheus counter that went back to 0 would read as
 * a restart, and every rate over it would be wrong). A clear records each counter's value then; a report
 * subtracts it. Reals and virtual servers are keyed by name, so one that a reload replaced starts from 0
 * against a baseline it never had: its counts never go negative ({@link #since}).
 */
final class CounterBaselines {

    /** A virtual server's counters, as the API reports them. */
    record Counts(long received, long forwarded, long relayed, long expired) {
    }

    /** A real's counters, as the API reports them. */
    record RealCounts(long requests, long answered, long unanswered, long failures) {
    }

    private final Map<String, Counts> servers = new ConcurrentHashMap<>();
    private final Map<String, RealCounts> reals = new ConcurrentHashMap<>();
    private volatile Instant clearedAt;

    /** Takes every counter's value now as its new zero. */
    void clear(Director director) {
        for (VirtualServer vs : director.virtualServers().values()) {
            servers.put(vs.name(), raw(vs));
        }
        director.farms().all().forEach(farm -> farm.reals().forEach(r -> reals.put(key(r), raw(r))));
        clearedAt = Instant.now();
    }

    /** When counters were last cleared, or null if never. */
    Instant clearedAt() {
        return clearedAt;
    }

    Counts of(VirtualServer vs) {
        Counts now = raw(vs);
        Counts base = servers.get(vs.name());
        return base == null ? now : new Counts(since(now.received(), base.received()),
                since(now.forwarded(), base.forwarded()), since(now.relayed(), base.relayed()),
                since(now.expired(), base.expired()));
    }

    RealCounts of(RealServer r) {
        RealCounts now = raw(r);
        RealCounts base = reals.get(key(r));
        return base == null ? now : new RealCounts(since(now.requests(), base.requests()),
                since(now.answered(), base.answered()), since(now.unanswered(), base.unanswered()),
                since(now.failures(), base.failures()));
    }

    /** A counter that is below its baseline belongs to a newer object of the same name: it counts from 0. */
    private static long since(long now, long base) {
        return now >= base ? now - base : now;
    }

    private static Counts raw(VirtualServer vs) {
        return new Counts((long) vs.metrics().receivedCount(), (long) vs.metrics().forwardedCount(),
                (long) vs.metrics().relayedCount(), (long) vs.metrics().expiredCount());
    }

    private static RealCounts raw(RealServer r) {
        return new RealCounts(r.forwarded(), r.answered(), r.unanswered(), r.failures());
    }

    private static String key(RealServer r) {
        return r.farm() + "/" + r.id();
    }
}
