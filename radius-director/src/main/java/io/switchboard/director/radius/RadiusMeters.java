package io.switchboard.director.radius;

import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.MetricSpec.Type;
import java.util.List;

/**
 * The meters of the {@code radius} plug-in ({@link RadiusModule#metrics()}), each tagged
 * {@code vserver}: {@link RadiusPlugin} counts requests and answers by code ({@code other} for a code
 * it has no counter of), {@link RadiusVsaCorrelation} the Accounting-Starts it could not complete.
 */
final class RadiusMeters {

    static final MetricSpec REQUESTS = new MetricSpec("switchboard.radius.requests", Type.COUNTER,
            "RADIUS requests admitted (known client, authenticators verified), by code", List.of("code"));
    static final MetricSpec ANSWERS = new MetricSpec("switchboard.radius.answers", Type.COUNTER,
            "RADIUS answers from reals that verified and were relayed, by code", List.of("code"));
    static final MetricSpec VSA_NOT_ADDED = new MetricSpec("switchboard.radius.vsa.not.added", Type.COUNTER,
            "Accounting-Starts forwarded without the correlated VSA, by reason", List.of("reason"));

    static final List<MetricSpec> ALL = List.of(REQUESTS, ANSWERS, VSA_NOT_ADDED);

    private RadiusMeters() {
    }
}
