package io.switchboard.director.radius.radsec;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.MetricSpec.Type;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The meters of RADIUS over TLS, each tagged {@code vserver} and {@code side} ({@code client}: the
 * connections NASes open to the director; {@code real}: those the director opens to RadSec reals).
 */
public final class RadsecMeters {

    public static final MetricSpec CONNECTIONS = new MetricSpec("switchboard.radius.radsec.connections", Type.COUNTER,
            "RadSec (RFC 6614) connections, by side and outcome: opened (TLS up, peer known), closed, refused"
                    + " (client side: no configured client is that peer), failed (real side: could not connect),"
                    + " dropped (real side: the connection ended; reconnected)", List.of("side", "outcome"));
    public static final MetricSpec HANDSHAKE_FAILURES = new MetricSpec("switchboard.radius.radsec.handshake.failures",
            Type.COUNTER, "RadSec TLS handshakes that failed (certificate not verified, protocol), by side",
            List.of("side"));
    public static final MetricSpec FRAMING_ERRORS = new MetricSpec("switchboard.radius.radsec.framing.errors",
            Type.COUNTER, "RadSec streams whose RADIUS Length field was out of 20..4096 (RFC 6614 2.5): the"
                    + " connection is closed, by side", List.of("side"));
    public static final MetricSpec PACKETS = new MetricSpec("switchboard.radius.radsec.packets", Type.COUNTER,
            "RADIUS packets carried over RadSec, by side and outcome: received, sent, not-sent (no connection"
                    + " to the client or real any more, or the real's connection is not up)",
            List.of("side", "outcome"));

    public static final List<MetricSpec> ALL = List.of(CONNECTIONS, HANDSHAKE_FAILURES, FRAMING_ERRORS, PACKETS);

    /** Client or real side. */
    public enum Side {
        CLIENT, REAL;

        String tag() {
            return this == CLIENT ? "client" : "real";
        }
    }

    private final MeterRegistry registry;
    private final String vserver;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    public RadsecMeters(MeterRegistry registry, String vserver) {
        this.registry = registry;
        this.vserver = vserver;
        // Every outcome counted from the start, at 0 until it happens.
        for (Side side : Side.values()) {
            handshakeFailed(side, 0);
            framingError(side, 0);
            for (String outcome : side == Side.CLIENT ? List.of("opened", "closed", "refused")
                    : List.of("opened", "failed", "dropped")) {
                counter(CONNECTIONS, side, outcome);
            }
            for (String outcome : List.of("received", "sent", "not-sent")) {
                counter(PACKETS, side, outcome);
            }
        }
    }

    public void connection(Side side, String outcome) {
        counter(CONNECTIONS, side, outcome).increment();
    }

    public void handshakeFailed(Side side) {
        handshakeFailed(side, 1);
    }

    private void handshakeFailed(Side side, double n) {
        counter(HANDSHAKE_FAILURES, side, null).increment(n);
    }

    public void framingError(Side side) {
        framingError(side, 1);
    }

    private void framingError(Side side, double n) {
        counter(FRAMING_ERRORS, side, null).increment(n);
    }

    public void packet(Side side, String outcome) {
        counter(PACKETS, side, outcome).increment();
    }

    /** A count, for tests and logs: {@code outcome} null for the meters without one. */
    public double count(MetricSpec meter, Side side, String outcome) {
        return counter(meter, side, outcome).count();
    }

    private Counter counter(MetricSpec meter, Side side, String outcome) {
        String key = meter.name() + '/' + side.tag() + '/' + outcome;
        return counters.computeIfAbsent(key, k -> {
            Counter.Builder b = meter.counter().tag("vserver", vserver).tag("side", side.tag());
            return (outcome == null ? b : b.tag("outcome", outcome)).register(registry);
        });
    }
}
