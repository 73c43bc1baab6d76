package io.switchboard.director.radius;

import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.MetricSpec.Type;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.codec.radius.RadiusCode;
import java.util.Arrays;
import java.util.List;

/**
 * The meters of the {@code radius} plug-in ({@link RadiusModule#metrics()}), each tagged
 * {@code vserver}: {@link RadiusPlugin} counts requests and answers by code ({@code other} for a code
 * it has no counter of) and the answers it refused, {@link RadiusVsaCorrelation} the Accounting-Starts
 * it could not complete, {@link ResponseCache} the retransmissions it recognised,
 * {@link DynamicAuthorization} the DAE requests and answers it relayed or answered.
 */
final class RadiusMeters {

    static final MetricSpec REQUESTS = new MetricSpec("switchboard.radius.requests", Type.COUNTER,
            "RADIUS requests admitted (known client, authenticators verified), by code", List.of("code"));
    static final MetricSpec ANSWERS = new MetricSpec("switchboard.radius.answers", Type.COUNTER,
            "RADIUS answers from reals that verified and were relayed, by code", List.of("code"));
    static final MetricSpec VSA_NOT_ADDED = new MetricSpec("switchboard.radius.vsa.not.added", Type.COUNTER,
            "Accounting-Starts forwarded without the correlated VSA, by reason", List.of("reason"));

    static final MetricSpec ANSWERS_REFUSED = new MetricSpec("switchboard.radius.answers.refused", Type.COUNTER,
            "RADIUS answers from reals that were not relayed, by reason (radius-missing-message-authenticator:"
                    + " BlastRADIUS)", List.of("reason"));
    static final MetricSpec DUPLICATES = new MetricSpec("switchboard.radius.duplicates", Type.COUNTER,
            "RADIUS requests seen again within the response cache time (RFC 5080 2.2.2), by outcome:"
                    + " answered-from-cache, or identifier-reused (another authenticator: a new request)",
            List.of("outcome"));

    static final MetricSpec STATUS_SERVER = new MetricSpec("switchboard.radius.status.server", Type.COUNTER,
            "Status-Servers (RFC 5997) sent to the virtual server, by outcome: answered, or no-real-serves"
                    + " (not answered, so that the NAS fails over)", List.of("outcome"));

    static final MetricSpec DAE_REQUESTS = new MetricSpec("switchboard.radius.dae.requests", Type.COUNTER,
            "CoA- and Disconnect-Requests from AAA reals that verified (RFC 5176), by code and outcome: relayed"
                    + " to the session's NAS, or answered with a NAK: session-not-found (Error-Cause 503),"
                    + " not-routable (502)", List.of("code", "outcome"));
    static final MetricSpec DAE_ANSWERS = new MetricSpec("switchboard.radius.dae.answers", Type.COUNTER,
            "CoA- and Disconnect-ACKs and -NAKs from NASes that verified and were relayed to the AAA, by code",
            List.of("code"));

    static final List<MetricSpec> ALL = List.of(REQUESTS, ANSWERS, VSA_NOT_ADDED, ANSWERS_REFUSED, DUPLICATES,
            STATUS_SERVER, DAE_REQUESTS, DAE_ANSWERS);

    private RadiusMeters() {
    }

    /** Counters of {@code meter} per RADIUS code (index), {@code other} for the codes not named. */
    static Counter[] byCode(MeterRegistry registry, MetricSpec meter, String vserver, RadiusCode... codes) {
        Counter[] counters = new Counter[256];
        Arrays.fill(counters, meter.counter().tag("vserver", vserver).tag("code", "other").register(registry));
        for (RadiusCode code : codes) {
            counters[code.value()] = meter.counter().tag("vserver", vserver).tag("code", code.name()).register(registry);
        }
        return counters;
    }

    static void count(Counter[] counters, int code) {
        Counter c = counters[code & 0xff];
        if (c != null) {
            c.increment();
        }
    }
}
