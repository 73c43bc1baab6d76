package io.switchboard.director.ha;

import io.switchboard.director.spi.LoadWeights;
import io.vertx.core.json.JsonObject;

/**
 * The dynamic weight a home agent reports through DFP (IOS Mobile IP home agent
 * {@code ip mobile home-agent dfp-max-weight}): {@code (max bindings − current bindings) / max bindings
 * × (cpu + memory) / 32 × max weight}. {@code cpu} and {@code memory} are availability figures
 * 0..16 each (16: idle processor, all memory free), so that their sum over 32 is a fraction; an agent
 * at its binding limit, or with neither processor nor memory left, reports 0 and takes no new
 * registrations. For an agent that does not speak DFP itself (docs/dfp.md), the figures come through
 * the admin API.
 *
 * @param bindings    current mobility bindings, 0.. (more than the maximum counts as the maximum)
 * @param maxBindings the agent's binding limit, ≥ 1 (default 235,000)
 * @param cpu         processor availability 0..16
 * @param memory      memory availability 0..16
 * @param maxWeight   the weight of an idle agent, 1..255 (default 24)
 */
public record HomeAgentLoad(long bindings, long maxBindings, int cpu, int memory, int maxWeight) {

    public static final long DEFAULT_MAX_BINDINGS = 235_000;
    public static final int DEFAULT_MAX_WEIGHT = 24;
    public static final int MAX_AVAILABILITY = 16;

    /**
     * The admin API's {@code PUT .../load}: {@code {"bindings": n, "cpu": 0..16, "memory": 0..16}},
     * optionally {@code "maxBindings"} (235000) and {@code "maxWeight"} (24).
     */
    static final LoadWeights WEIGHTS = new LoadWeights() {
        @Override
        public String usage() {
            return "body must be JSON: {\"bindings\": n >= 0, \"cpu\": 0..16, \"memory\": 0..16"
                    + ", \"maxBindings\": n >= 1 (235000), \"maxWeight\": 1..255 (24)}";
        }

        @Override
        public int weight(JsonObject body) {
            return new HomeAgentLoad(body.getLong("bindings"), body.getLong("maxBindings", DEFAULT_MAX_BINDINGS),
                    body.getInteger("cpu"), body.getInteger("memory"), body.getInteger("maxWeight", DEFAULT_MAX_WEIGHT))
                    .weight();
        }
    };

    public HomeAgentLoad {
        if (bindings < 0 || maxBindings < 1 || cpu < 0 || cpu > MAX_AVAILABILITY || memory < 0
                || memory > MAX_AVAILABILITY || maxWeight < 1 || maxWeight > 255) {
            throw new IllegalArgumentException("bindings >= 0, maxBindings >= 1, cpu and memory 0..16, maxWeight 1..255");
        }
    }

    /** The reported weight, rounded down: 0..{@code maxWeight}. */
    public int weight() {
        long free = Math.max(0, maxBindings - bindings);
        // Exact integer arithmetic: free/max × (cpu+memory)/32 × maxWeight.
        return (int) (free * (cpu + memory) * maxWeight / (maxBindings * 2L * MAX_AVAILABILITY));
    }
}
