package io.switchboard.director.overload;

import java.net.InetAddress;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A rate limit per sending peer address. A packet core has few peers (SGSNs, MMEs, NASes), but a
 * flood of forged sources must not grow the map: past {@link #MAX_PEERS} addresses, every new one
 * shares one cell, so unknown senders together get one peer's rate.
 */
final class PeerRates {

    static final int MAX_PEERS = 4096;

    private final int perSecond;
    private final long burstNanos;
    private final ConcurrentHashMap<InetAddress, RateCell> peers = new ConcurrentHashMap<>();
    private final RateCell others;

    PeerRates(int perSecond, long burstNanos) {
        this.perSecond = perSecond;
        this.burstNanos = burstNanos;
        this.others = new RateCell(perSecond, burstNanos);
    }

    boolean take(InetAddress peer, long now) {
        RateCell cell = peers.get(peer);
        if (cell == null) {
            if (peers.size() >= MAX_PEERS) {
                cell = others;
            } else {
                RateCell made = new RateCell(perSecond, burstNanos);
                RateCell raced = peers.putIfAbsent(peer, made);
                cell = raced == null ? made : raced;
            }
        }
        return cell.take(now);
    }

    int size() {
        return peers.size();
    }
}
