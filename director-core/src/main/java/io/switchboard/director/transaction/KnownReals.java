package io.switchboard.director.transaction;

import io.switchboard.director.Ticker;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The reals an engine takes answers from, by source address (several farms may hold one address),
 * following the farms as a reload changes them: read again when {@link Farms#version()} moved, one
 * volatile read per answer. A real that left its farm is still known for {@code keepNanos} (the
 * response timeout) after the engine saw it go, so that the answers to what was pending at it are
 * matched as before; after that none can be, and it is forgotten. Confined to the engine's thread.
 */
final class KnownReals {

    private final Farms farms;
    private final Ticker ticker;
    private final long keepNanos;
    private long version = Long.MIN_VALUE;
    private Map<InetSocketAddress, RealServer[]> byAddress = Map.of();
    /** The farms' reals at the last refresh. */
    private Map<RealServer, Boolean> inFarms = Map.of();
    /** Reals gone from the farms, and when this engine saw them go. */
    private final Map<RealServer, Long> departed = new IdentityHashMap<>();

    KnownReals(Farms farms, Ticker ticker, long keepNanos) {
        this.farms = farms;
        this.ticker = ticker;
        this.keepNanos = keepNanos;
        refresh(ticker.nanos());
    }

    /** The reals at {@code from}, the departed ones last; null when none is. */
    RealServer[] at(InetSocketAddress from) {
        if (farms.version() != version) {
            refresh(ticker.nanos());
        }
        return byAddress.get(from);
    }

    /** Follows the farms and forgets the departed reals whose requests can no longer be answered. */
    void housekeep(long nowNanos) {
        boolean forgot = false;
        for (Iterator<Long> at = departed.values().iterator(); at.hasNext(); ) {
            if (nowNanos - at.next() >= keepNanos) {
                at.remove();
                forgot = true;
            }
        }
        if (forgot || farms.version() != version) {
            refresh(nowNanos);
        }
    }

    private void refresh(long nowNanos) {
        long seen = farms.version();
        Map<RealServer, Boolean> current = new IdentityHashMap<>();
        Map<InetSocketAddress, List<RealServer>> lists = new HashMap<>();
        for (ServerFarm farm : farms.all()) {
            for (RealServer real : farm.reals()) {
                current.put(real, Boolean.TRUE);
                lists.computeIfAbsent(real.address(), a -> new ArrayList<>()).add(real);
            }
        }
        for (RealServer real : inFarms.keySet()) {
            if (!current.containsKey(real)) {
                departed.put(real, nowNanos);
            }
        }
        departed.keySet().removeIf(current::containsKey);
        inFarms = current;
        departed.keySet().forEach(real -> lists.computeIfAbsent(real.address(), a -> new ArrayList<>()).add(real));
        Map<InetSocketAddress, RealServer[]> next = new HashMap<>();
        lists.forEach((address, list) -> next.put(address, list.toArray(new RealServer[0])));
        byAddress = next;
        version = seen;
    }
}
