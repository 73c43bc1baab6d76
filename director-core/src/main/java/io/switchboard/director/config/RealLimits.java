package io.switchboard.director.config;

import java.util.OptionalInt;

/**
 * Limits on the new work a real takes, beside {@code maxconns} (IOS SLB real-server commands of the
 * same names, Cisco IOS SLB Command Reference, "L through W"):
 *
 * @param rate       at most this many new connections, sessions or subscribers (new bindings) per
 *                   second; beyond it the real is skipped for new work until the second is over,
 *                   while what is bound to it goes on. Empty: no limit
 * @param maxclients at most this many sticky clients (bindings naming the real, in every sticky table:
 *                   IMSI, RADIUS, MSID, client address); when reached the real takes no new client,
 *                   while its bound clients go on. Empty: no limit
 */
public record RealLimits(OptionalInt rate, OptionalInt maxclients) {

    public static final RealLimits NONE = new RealLimits(OptionalInt.empty(), OptionalInt.empty());

    public RealLimits {
        rate = rate == null ? OptionalInt.empty() : rate;
        maxclients = maxclients == null ? OptionalInt.empty() : maxclients;
    }
}
