package io.switchboard.director.config;

import java.util.Arrays;
import java.util.Optional;

/** How a farm picks a real for a new subscriber or flow (IOS SLB {@code predictor}). */
public enum PredictorKind {
    /** Weighted round robin in IOS order: weights 3/1/2 give A,A,A,B,C,C. */
    ROUNDROBIN("roundrobin"),
    /** Weighted least connections: the real with the fewest connections per unit of weight. */
    LEASTCONNS("leastconns"),
    /** Consistent (Maglev) hash of the sticky key over the live reals. */
    HASH("hash"),
    /** Selection by a route map of subscriber addresses (RADIUS framed IP, "turbo"). */
    ROUTE_MAP("route-map");

    private final String configName;

    PredictorKind(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Optional<PredictorKind> fromConfigName(String name) {
        return Arrays.stream(values()).filter(k -> k.configName.equals(name)).findFirst();
    }
}
