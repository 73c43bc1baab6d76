package io.switchboard.director.dfp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.config.DfpConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * What a node's {@code dfp} section starts: the manager for its agents, the agent for a manager in
 * front of it, and the built-in agents; closed together.
 */
public final class Dfp implements AutoCloseable {

    private final DfpManager manager;
    private final DfpAgent agent;
    private final DfpBuiltIns builtIns;

    private Dfp(DfpManager manager, DfpAgent agent, DfpBuiltIns builtIns) {
        this.manager = manager;
        this.agent = agent;
        this.builtIns = builtIns;
    }

    /** Starts what {@code config} asks for; the future fails when the agent cannot listen. */
    public static Future<Dfp> start(Vertx vertx, DfpConfig config, Director director, MeterRegistry registry) {
        DfpManager manager = config.agents().isEmpty() ? null
                : new DfpManager(vertx, config, director.farms(), registry).start();
        DfpBuiltIns builtIns = config.builtIns().isEmpty() ? null
                : new DfpBuiltIns(vertx, config, director.farms(), registry);
        if (config.agent().isEmpty()) {
            return Future.succeededFuture(new Dfp(manager, null, builtIns));
        }
        DfpAgent agent = new DfpAgent(vertx, config, new DirectorCapacity(director), registry);
        return agent.start().map(bound -> new Dfp(manager, agent, builtIns)).onFailure(e -> {
            if (manager != null) {
                manager.close();
            }
            if (builtIns != null) {
                builtIns.close();
            }
        });
    }

    @Override
    public void close() {
        if (manager != null) {
            manager.close();
        }
        if (agent != null) {
            agent.close();
        }
        if (builtIns != null) {
            builtIns.close();
        }
    }
}
