package io.switchboard.director.dfp;

/**
 * The weights of the built-in agents, for reals that cannot speak DFP (IOS-SLB.md C5, B4). The Home
 * Agent's formula, which needs the agent's processor and memory figures, is the ha-director's
 * {@code HomeAgentLoad}, fed through the admin API's load endpoint.
 */
public final class DfpFormulas {

    /** IOS GGSN {@code gprs dfp max-weight} when none is configured. */
    public static final int GGSN_DEFAULT_MAX_WEIGHT = 8;
    /** IOS GGSN {@code gprs dfp max-weight} range: 1..100. */
    public static final int GGSN_MAX_MAX_WEIGHT = 100;

    private DfpFormulas() {
    }

    /**
     * A GGSN's DFP weight: {@code maxWeight × (max − existing) / max} PDP contexts, rounded down, and
     * 0 at or over the maximum. The guide words it "existing / maximum PDP contexts", which read as
     * written would give the busiest GGSN the highest weight; the free share is what a weight means
     * (draft-eck-dfp-01 §5.2.1: "the higher the weight value the more available the server"), so that
     * is what is computed (docs/dfp.md).
     */
    public static int ggsn(long existingContexts, long maxContexts, int maxWeight) {
        if (maxContexts < 1 || maxWeight < 1 || maxWeight > GGSN_MAX_MAX_WEIGHT || existingContexts < 0) {
            throw new IllegalArgumentException("max contexts >= 1, max weight 1..100, existing >= 0");
        }
        long free = Math.max(0, maxContexts - existingContexts);
        return (int) (free * maxWeight / maxContexts);
    }
}
