package io.switchboard.director.dfp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The DFP counters, each tagged {@code agent} (the agent's {@code ADDRESS:PORT} for the manager, the
 * manager's for this node as agent) and {@code result}.
 */
final class DfpMeters {

    /** Connections to agents: open, failed, lost, expired (keep-alive), gave-up (retry-count spent). */
    static final String CONNECTIONS = "switchboard.dfp.connections";
    /** Messages from agents: weights, keep-alive, ignored, malformed, security. */
    static final String MESSAGES = "switchboard.dfp.messages";
    /** Host Preference Fields: applied, no-real, capped. */
    static final String WEIGHTS = "switchboard.dfp.weights";
    /** This node as agent: reports sent, managers connected, messages from managers ignored or malformed. */
    static final String AGENT = "switchboard.dfp.agent";

    private DfpMeters() {
    }

    static void count(MeterRegistry registry, String name, String agent, String result) {
        Counter.builder(name).description(description(name)).tag("agent", agent).tag("result", result)
                .register(registry).increment();
    }

    private static String description(String name) {
        switch (name) {
            case CONNECTIONS:
                return "DFP manager connections to agents, by outcome";
            case MESSAGES:
                return "DFP messages from agents, by outcome";
            case WEIGHTS:
                return "Host Preference Fields from DFP agents, by outcome";
            default:
                return "This node as DFP agent: reports and managers, by outcome";
        }
    }
}
