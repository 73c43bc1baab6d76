package io.switchboard.director.config;

import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Route health as BGP announcements ({@code route-health.bgp}): the node's own BGP speaker (BIRD 2
 * or FRR, on the same host) announces each served virtual address as a host route to the
 * neighbours, and withdraws it when the node stops serving it; BFD on the sessions lets the routers
 * drop a node that dies in well under a second.
 *
 * @param daemon which speaker drives the sessions
 * @param localAs the node's AS (RFC 6793: four octets)
 * @param routerId the BGP identifier; empty: the daemon picks one of its addresses
 * @param neighbours the routers to announce to
 * @param communities RFC 1997 ({@code AS:VALUE}) and RFC 8092 ({@code A:B:C}) communities added to every announcement
 * @param bfd BFD (RFC 5880/5881) on every session, with these timers
 * @param bfdInterval BFD's desired transmit and required receive interval
 * @param bfdMultiplier BFD's detect multiplier: the session is down after this many intervals without a packet
 * @param includeFile BIRD: the file Switchboard writes and the operator's bird.conf includes
 * @param socket BIRD: the control socket ({@code birdc -s}); FRR: the vty socket directory ({@code vtysh --vty_socket})
 */
public record BgpConfig(Daemon daemon, long localAs, Optional<InetAddress> routerId, List<Neighbour> neighbours,
        List<String> communities, boolean bfd, Duration bfdInterval, int bfdMultiplier, Path includeFile,
        Optional<Path> socket) {

    public static final Duration DEFAULT_BFD_INTERVAL = Duration.ofMillis(100);
    public static final int DEFAULT_BFD_MULTIPLIER = 3;
    public static final Path DEFAULT_INCLUDE_FILE = Path.of("/etc/bird/switchboard.conf");

    public enum Daemon {
        BIRD, FRR
    }

    /** A router the node peers with: its address and AS, and the node's source address (empty: the daemon's choice). */
    public record Neighbour(InetAddress address, long as, Optional<InetAddress> source) {
    }

    public BgpConfig {
        neighbours = List.copyOf(neighbours);
        communities = List.copyOf(communities);
    }
}
