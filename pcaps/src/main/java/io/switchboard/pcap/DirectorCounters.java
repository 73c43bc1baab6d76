package io.switchboard.pcap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.Map;

/**
 * A virtual server's outcome counters in a live director's registry, as a live what-if run reads
 * them to tell what became of a request it sent: {@code dropped:<reason>}, {@code selection:<reason>},
 * {@code unmatched:<reason>}, {@code reassigned}, {@code answered-locally}, {@code relayed},
 * {@code retransmitted}, {@code expired} — the names of {@code VirtualServerMetrics}' meters.
 */
final class DirectorCounters {

    private final Map<String, Double> counts;

    private DirectorCounters(Map<String, Double> counts) {
        this.counts = counts;
    }

    static DirectorCounters of(MeterRegistry registry, String virtualServer) {
        Map<String, Double> counts = new HashMap<>();
        tagged(registry, virtualServer, "switchboard.dropped", "dropped:", counts);
        tagged(registry, virtualServer, "switchboard.selections", "selection:", counts);
        tagged(registry, virtualServer, "switchboard.responses.unmatched", "unmatched:", counts);
        single(registry, virtualServer, "switchboard.requests.reassigned", "reassigned", counts);
        single(registry, virtualServer, "switchboard.requests.answered.locally", "answered-locally", counts);
        single(registry, virtualServer, "switchboard.responses.relayed", "relayed", counts);
        single(registry, virtualServer, "switchboard.requests.retransmitted", "retransmitted", counts);
        single(registry, virtualServer, "switchboard.requests.expired", "expired", counts);
        return new DirectorCounters(counts);
    }

    private static void tagged(MeterRegistry registry, String vs, String meter, String prefix, Map<String, Double> into) {
        for (Counter c : registry.find(meter).tag("vserver", vs).counters()) {
            into.merge(prefix + c.getId().getTag("reason"), c.count(), Double::sum);
        }
    }

    private static void single(MeterRegistry registry, String vs, String meter, String name, Map<String, Double> into) {
        for (Counter c : registry.find(meter).tag("vserver", vs).counters()) {
            into.merge(name, c.count(), Double::sum);
        }
    }

    /** The count of {@code name} since the director started. */
    long count(String name) {
        return Math.round(counts.getOrDefault(name, 0.0));
    }

    /** How much {@code name} grew since {@code before}. */
    long since(DirectorCounters before, String name) {
        return Math.round(counts.getOrDefault(name, 0.0) - before.counts.getOrDefault(name, 0.0));
    }

    /** The first counter with {@code prefix} that grew since {@code before}, without the prefix; null if none. */
    String grown(DirectorCounters before, String prefix) {
        for (Map.Entry<String, Double> e : counts.entrySet()) {
            if (e.getKey().startsWith(prefix) && since(before, e.getKey()) > 0) {
                return e.getKey().substring(prefix.length());
            }
        }
        return null;
    }
}
