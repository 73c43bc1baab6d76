package io.switchboard.director.dfp;

import java.util.List;

/**
 * The load a KAL-AP agent reports to a Cisco GSS for a virtual address (IOS SLB guide, IOS-SLB.md
 * A26), 0 the least loaded and 256 the most. Only the figure: the KAL-AP wire format (and the CAPP
 * transport IOS {@code ip slb capp udp} names) is not in any public document found, so no agent
 * answers on the network (docs/dfp.md).
 */
public final class KalApLoad {

    public static final int FULL = 256;
    /** The weight of a real when DFP is down and it has none configured. */
    public static final int DEFAULT_WEIGHT = 8;

    private KalApLoad() {
    }

    /**
     * Relative load (no {@code farm-weight}, or no DFP): {@code 256 − active × 256 / inservice}; a
     * virtual address with no real in service is fully loaded. Two in service, one active: 128.
     */
    public static int relative(int active, int inService) {
        if (active < 0 || inService < 0 || active > inService) {
            throw new IllegalArgumentException("0 <= active <= inservice");
        }
        return inService == 0 ? FULL : FULL - active * FULL / inService;
    }

    /**
     * Absolute load ({@code farm-weight} configured): {@code 256 − Σ max DFP weights × 256 / farm-weight},
     * at least 0. Max weights 100 and 50, farm-weight 200: 64.
     *
     * @param maxWeights each real's maximum DFP weight (its static weight, or {@link #DEFAULT_WEIGHT},
     *                   while DFP is down)
     */
    public static int absolute(List<Integer> maxWeights, int farmWeight) {
        if (farmWeight < 1) {
            throw new IllegalArgumentException("farm-weight >= 1");
        }
        long sum = maxWeights.stream().mapToLong(Integer::longValue).sum();
        return (int) Math.max(0, FULL - sum * FULL / farmWeight);
    }
}
