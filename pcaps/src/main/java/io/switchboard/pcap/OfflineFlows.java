package io.switchboard.pcap;

import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The client flows of a generic UDP virtual server in an offline run, as the live upstream keeps
 * them (FlowUpstream): a client ({@code address:port}) keeps its flow's real while that real serves
 * its bound clients, whatever the sticky table says; a request its real leaves unanswered (the
 * capture has none) waits for the response timeout and then counts as unanswered there; a flow with
 * nothing outstanding is closed once idle for the virtual server's {@code idle}, looked for at most
 * once a second.
 */
final class OfflineFlows {

    private static final long SWEEP_NANOS = 1_000_000_000L;

    private static final class Flow {
        final RealServer real;
        long lastUsedNanos;
        int outstanding;

        Flow(RealServer real, long nowNanos) {
            this.real = real;
            this.lastUsedNanos = nowNanos;
        }
    }

    private record Unanswered(InetSocketAddress client, Flow flow, long deadlineNanos) {
    }

    private final long idleNanos;
    private final long timeoutNanos;
    private final Map<InetSocketAddress, Flow> flows = new HashMap<>();
    /** Oldest first: all share one timeout. */
    private final ArrayDeque<Unanswered> unanswered = new ArrayDeque<>();
    private long nextSweepNanos;

    OfflineFlows(long idleNanos, long timeoutNanos) {
        this.idleNanos = idleNanos;
        this.timeoutNanos = timeoutNanos;
    }

    /** The client's flow's real, or the selector's choice for a new flow; null when no real may take it. */
    Selection select(InetSocketAddress client, StickyKey key, RealSelector selector, long nowNanos) {
        Flow flow = flows.get(client);
        if (flow != null && flow.real.servesBoundClients()) {
            return new Selection(flow.real, Selection.Reason.STICKY);
        }
        Selection selection = selector.select(key, nowNanos);
        if (selection == null) {
            return null;
        }
        flows.put(client, new Flow(selection.real(), nowNanos)); // a flow whose real left is closed
        return selection;
    }

    /** The request went to its flow's real; {@code answered} when the capture has its answer. */
    void sent(InetSocketAddress client, boolean answered, long nowNanos) {
        Flow flow = flows.get(client);
        flow.lastUsedNanos = nowNanos;
        flow.real.requestForwarded();
        if (answered) {
            flow.real.requestAnswered();
        } else {
            flow.outstanding++;
            unanswered.addLast(new Unanswered(client, flow, nowNanos + timeoutNanos));
        }
    }

    /** Expires what waited for its timeout, then closes idle flows, as the live upstream's housekeeping. */
    void housekeep(long nowNanos) {
        while (!unanswered.isEmpty() && unanswered.peekFirst().deadlineNanos() - nowNanos <= 0) {
            Unanswered u = unanswered.pollFirst();
            u.flow().outstanding--;
            u.flow().real.requestUnanswered(u.client().getAddress(), nowNanos);
        }
        if (nowNanos - nextSweepNanos >= 0) {
            nextSweepNanos = nowNanos + SWEEP_NANOS;
            for (Iterator<Flow> it = flows.values().iterator(); it.hasNext(); ) {
                Flow flow = it.next();
                if (flow.outstanding == 0 && nowNanos - flow.lastUsedNanos > idleNanos) {
                    it.remove();
                }
            }
        }
    }
}
