package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A real server of a farm.
 *
 * @param weight   static weight 1..255 (IOS default 8); weight 0 is only set at run time, by the
 *                 API or dynamic feedback, and stops new work going to the real
 * @param maxconns at most this many connections (in-flight transactions for datagram services)
 *                 before the real is MAXCONNS_THROTTLED; empty for no limit
 * @param inService false starts the real OUTOFSERVICE (IOS {@code no inservice})
 * @param secret   the shared secret between the director and this real, for protocols that sign
 *                 their messages (RADIUS); empty where none is configured
 */
public record RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService,
        Optional<String> secret) {

    public static final int DEFAULT_WEIGHT = 8;

    /** A real without a shared secret. */
    public RealConfig(InetAddress address, int port, int weight, OptionalInt maxconns, boolean inService) {
        this(address, port, weight, maxconns, inService, Optional.empty());
    }

    public Endpoint endpoint() {
        return new Endpoint(address, port);
    }
}
