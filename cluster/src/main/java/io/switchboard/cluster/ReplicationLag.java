package io.switchboard.cluster;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What this member has heard of each peer's heartbeats ({@link ClusterHealth}): the lag of the last
 * one (its arrival on this member's wall clock minus its sending on the peer's), when it arrived (on
 * this member's monotonic clock, so that "how long since" needs no synchronised clocks), and how
 * many of a peer's heartbeats never arrived (gaps in its sequence: Hazelcast drops events when a
 * member's event queue overflows, and a replica that misses events misses bindings too).
 * Peers are named by their member address ({@code host:port}), stable across a restart.
 * Thread-safe: Hazelcast's event threads record, the scrape reads.
 */
final class ReplicationLag {

    /** One peer's heartbeats as this member heard them; guarded by itself. */
    private static final class Peer {
        String incarnation;
        long sequence;
        long lagMillis;
        long heardNanos;
        long missed;
    }

    private final ConcurrentHashMap<String, Peer> peers = new ConcurrentHashMap<>();

    /**
     * A heartbeat of {@code peer} arrived.
     *
     * @param incarnation the peer's member uuid: a restarted peer counts its sequence from 1 again
     * @param sentMillis  the peer's wall clock when it sent the heartbeat
     * @param nowMillis   this member's wall clock now
     * @param nowNanos    this member's monotonic clock now
     * @return the lag observed, in milliseconds, never negative (a peer's clock ahead of this one's
     *         by more than the lag would make it so: see docs/cluster.md on clock error)
     */
    long heard(String peer, String incarnation, long sequence, long sentMillis, long nowMillis, long nowNanos) {
        Peer p = peers.computeIfAbsent(peer, k -> new Peer());
        long lag = Math.max(0, nowMillis - sentMillis);
        synchronized (p) {
            if (incarnation.equals(p.incarnation)) {
                if (sequence <= p.sequence) {
                    return lag; // a duplicate or a late one: what it says is known already
                }
                p.missed += sequence - p.sequence - 1;
            }
            p.incarnation = incarnation;
            p.sequence = sequence;
            p.lagMillis = lag;
            p.heardNanos = nowNanos;
        }
        return lag;
    }

    /** Whether anything was heard of {@code peer} (since it was last forgotten). */
    boolean knows(String peer) {
        return peers.containsKey(peer);
    }

    Set<String> peers() {
        return Set.copyOf(peers.keySet());
    }

    /** The last heartbeat's lag, in seconds; NaN for a peer never heard. */
    double lagSeconds(String peer) {
        Peer p = peers.get(peer);
        if (p == null) {
            return Double.NaN;
        }
        synchronized (p) {
            return p.lagMillis / 1e3;
        }
    }

    /** Seconds since the last heartbeat of {@code peer} arrived; NaN for a peer never heard. */
    double ageSeconds(String peer, long nowNanos) {
        Peer p = peers.get(peer);
        if (p == null) {
            return Double.NaN;
        }
        synchronized (p) {
            return (nowNanos - p.heardNanos) / 1e9;
        }
    }

    /** Heartbeats of {@code peer} that never arrived (while the same incarnation was heard). */
    long missed(String peer) {
        Peer p = peers.get(peer);
        if (p == null) {
            return 0;
        }
        synchronized (p) {
            return p.missed;
        }
    }

    /** The peer left the cluster: nothing more is expected of it. */
    void forget(String peer) {
        peers.remove(peer);
    }
}
