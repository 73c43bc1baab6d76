package io.switchboard.director.config;

import static io.switchboard.director.config.PredictorKind.HASH;
import static io.switchboard.director.config.PredictorKind.LEASTCONNS;
import static io.switchboard.director.config.PredictorKind.ROUNDROBIN;
import static io.switchboard.director.config.PredictorKind.ROUTE_MAP;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The protocol service of a virtual server, with the predictors and sticky keys it accepts. The
 * predictor restrictions are those of IOS SLB: GPRS load balancing without cause-code inspection
 * and the Home Agent Director accept only weighted round robin, ASN refuses least connections.
 */
public enum ServiceKind {
    UDP("udp", EnumSet.of(ROUNDROBIN, LEASTCONNS, HASH), EnumSet.of(StickyKind.CLIENT_ADDRESS)),
    TCP("tcp", EnumSet.of(ROUNDROBIN, LEASTCONNS, HASH), EnumSet.of(StickyKind.CLIENT_ADDRESS)),
    GTP("gtp", EnumSet.of(ROUNDROBIN), EnumSet.of(StickyKind.IMSI)),
    GTP_INSPECT("gtp-inspect", EnumSet.of(ROUNDROBIN, LEASTCONNS), EnumSet.of(StickyKind.IMSI)),
    RADIUS("radius", EnumSet.of(ROUNDROBIN, HASH, ROUTE_MAP),
            EnumSet.of(StickyKind.FRAMED_IP, StickyKind.CALLING_STATION_ID, StickyKind.USERNAME)),
    IPMOBILE("ipmobile", EnumSet.of(ROUNDROBIN), EnumSet.noneOf(StickyKind.class)),
    ASN("asn", EnumSet.of(ROUNDROBIN, HASH), EnumSet.of(StickyKind.MSID));

    private final String configName;
    private final Set<PredictorKind> predictors;
    private final Set<StickyKind> stickyKeys;

    ServiceKind(String configName, Set<PredictorKind> predictors, Set<StickyKind> stickyKeys) {
        this.configName = configName;
        this.predictors = predictors;
        this.stickyKeys = stickyKeys;
    }

    public String configName() {
        return configName;
    }

    public boolean allows(PredictorKind predictor) {
        return predictors.contains(predictor);
    }

    public Set<PredictorKind> allowedPredictors() {
        return EnumSet.copyOf(predictors);
    }

    public boolean allows(StickyKind key) {
        return stickyKeys.contains(key);
    }

    public Set<StickyKind> allowedStickyKeys() {
        return stickyKeys.isEmpty() ? EnumSet.noneOf(StickyKind.class) : EnumSet.copyOf(stickyKeys);
    }

    public static Optional<ServiceKind> fromConfigName(String name) {
        return Arrays.stream(values()).filter(k -> k.configName.equals(name)).findFirst();
    }
}
