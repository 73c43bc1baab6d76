package io.switchboard.director.config;

import java.time.Duration;

/**
 * A virtual server's {@code overload} section: how much new work it admits, per sending peer and in
 * all, and how much work of every kind it takes before it sheds (see docs/overload.md). A rate of 0
 * sets no limit.
 *
 * @param newPerSecond        new work (creates, Access-Requests, new flows) admitted per second
 * @param newPerPeerPerSecond the same per sending peer address (an SGSN, an MME, a NAS)
 * @param capacityPerSecond   requests of every kind per second this node takes for the virtual
 *                            server: past it the director is saturated and sheds
 * @param sessionReservePercent the share of {@code capacityPerSecond}'s burst kept for session work: new
 *                            work is refused once the burst is used down to it, session work only
 *                            when the burst is used up
 * @param burst               how long a rate may be exceeded at once: each limit holds rate × burst
 */
public record OverloadConfig(int newPerSecond, int newPerPeerPerSecond, int capacityPerSecond,
        int sessionReservePercent, Duration burst) {

    public static final int DEFAULT_SESSION_RESERVE_PERCENT = 20;
    public static final Duration DEFAULT_BURST = Duration.ofSeconds(1);

    /** No admission control: every request is taken (the default). */
    public static final OverloadConfig NONE = new OverloadConfig(0, 0, 0, DEFAULT_SESSION_RESERVE_PERCENT,
            DEFAULT_BURST);

    public boolean enabled() {
        return newPerSecond > 0 || newPerPeerPerSecond > 0 || capacityPerSecond > 0;
    }
}
