package io.switchboard.pcap;

import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether a request kept its stickiness, the one judgement of offline and live what-if runs: a
 * <em>violation</em> is a request that the live policy would have kept on its real and did not —
 * its key was last sent to another real that still serves its bound clients, within the sticky idle
 * time, and its binding had not ended ({@link BindingEnd}: released by the plug-in, expired, evicted
 * with its real, refused by a full table). When it had ended, the outcome says how instead.
 */
public final class StickinessAudit {

    /** @param binding how the key's binding had ended before this request, or null */
    public record Verdict(boolean violation, BindingEnd binding) {

        static final Verdict NONE = new Verdict(false, null);
    }

    private record Last(RealServer real, long nanos) {
    }

    private final Map<StickyTable, Map<StickyKey, Last>> lastReal = new IdentityHashMap<>();
    private final Map<String, Integer> ended = new TreeMap<>();
    private int violations;

    /**
     * Judges a request of {@code key} that reached {@code real} at {@code nowNanos}.
     *
     * @param ended how its binding had ended when the request was classified
     *              ({@link ObservedStickyTables#ended}), or null
     * @param idleNanos the table's sticky idle time
     */
    public Verdict judge(StickyTable table, StickyKey key, BindingEnd ended, RealServer real, long nowNanos,
            long idleNanos) {
        Map<StickyKey, Last> last = lastReal.computeIfAbsent(table, t -> new HashMap<>());
        Last before = last.put(key, new Last(real, nowNanos));
        if (ended != null) {
            this.ended.merge(ended.tag(), 1, Integer::sum);
            return new Verdict(false, ended);
        }
        boolean violation = before != null && before.real() != real && before.real().servesBoundClients()
                && nowNanos - before.nanos() < idleNanos;
        if (violation) {
            violations++;
            return new Verdict(true, null);
        }
        return Verdict.NONE;
    }

    public int violations() {
        return violations;
    }

    /** How many requests found their key's binding ended, by how; empty when none did. */
    public Map<String, Integer> bindingsEnded() {
        return new LinkedHashMap<>(ended);
    }
}
