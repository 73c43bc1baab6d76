package io.switchboard.director.spi;

import io.vertx.core.json.JsonObject;

/**
 * How a real's reported load figures become its weight, for the admin API's {@code PUT
 * /api/v1/reals/{farm}/{real}/load} (the Home Agent Director's DFP formula, for agents that do not
 * speak DFP themselves; those that do are {@code dfp.agents}). At most one installed module declares it, in {@link
 * PluginModule#loadWeights()}; without one the endpoint does not exist.
 */
public interface LoadWeights {

    /** The body the endpoint takes, as the answer to one it cannot read says. */
    String usage();

    /**
     * The weight the figures in {@code body} give.
     *
     * @throws RuntimeException when {@code body} does not hold valid figures
     */
    int weight(JsonObject body);
}
