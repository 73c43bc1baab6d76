package io.switchboard.director.config;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Dynamic Feedback Protocol ({@code dfp}, draft-eck-dfp-01; IOS {@code ip slb dfp}): the agents this
 * node connects to as DFP manager, whose weights override the reals' static weights; the listener
 * on which it is itself an agent for a manager in front of several sites; and the built-in agents
 * that weigh reals which cannot speak DFP from the counts the director keeps.
 *
 * @param password  the MD5 key of the Security TLV (draft §5.1.1, key ID 0), for what is sent and
 *                  required of what is received; empty for no security
 * @param agents    the agents the manager connects to (IOS {@code agent} lines)
 * @param bindIds   by farm, the bind ID its reals answer to (IOS {@code bindid} of a server farm), so
 *                  that one server in two farms can be weighed for each; a farm not listed has 0
 * @param agent     this node as a DFP agent; empty when it is not one
 * @param builtIns  reals weighed by a formula instead of by an agent of their own
 */
public record DfpConfig(Optional<String> password, List<Agent> agents, Map<String, Integer> bindIds,
        Optional<AgentListener> agent, List<BuiltIn> builtIns) {

    public static final DfpConfig NONE = new DfpConfig(Optional.empty(), List.of(), Map.of(), Optional.empty(),
            List.of());

    /** IOS {@code retry-interval} when none is given (seconds, as the IOS SLB command reference has it). */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(180);
    /** How often this node reports to a manager when the manager asks for nothing shorter. */
    public static final Duration DEFAULT_REPORT_INTERVAL = Duration.ofSeconds(10);

    public DfpConfig {
        agents = List.copyOf(agents);
        bindIds = Map.copyOf(bindIds);
        builtIns = List.copyOf(builtIns);
    }

    /** Without the password, which logs and reports must not show. */
    @Override
    public String toString() {
        return "DfpConfig[password=" + (password.isPresent() ? "(set)" : "none") + ", agents=" + agents
                + ", bindIds=" + bindIds + ", agent=" + agent + ", builtIns=" + builtIns + "]";
    }

    public boolean enabled() {
        return !agents.isEmpty() || agent.isPresent() || !builtIns.isEmpty();
    }

    /** The bind ID of a farm's reals (IOS {@code bindid}, default 0). */
    public int bindId(String farm) {
        return bindIds.getOrDefault(farm, 0);
    }

    /**
     * One agent (IOS {@code agent ADDR PORT [timeout [retry-count [retry-interval]]]}).
     *
     * @param timeout       keep-alive (draft §5.3): without a message from the agent for this long the
     *                      connection is closed and tried again; zero for never
     * @param retryCount    connection attempts after a failure or loss before giving up; 0 for no limit
     * @param retryInterval the wait between two attempts
     */
    public record Agent(InetAddress address, int port, Duration timeout, int retryCount, Duration retryInterval) {

        /** {@code 10.0.0.5:8080}, as logs and metrics name it. */
        public String name() {
            return new Endpoint(address, port).toString();
        }
    }

    /**
     * This node as an agent (IOS {@code ip dfp agent}).
     *
     * @param interval how often it reports its virtual servers' capacity without a change
     */
    public record AgentListener(Endpoint listen, Duration interval) {
    }

    /** The formulas of the built-in agents. */
    public enum Formula {
        /**
         * A GGSN's (IOS GGSN {@code gprs dfp max-weight}): max weight × (max − existing PDP contexts) /
         * max, the existing contexts being the sessions the director counts on the real.
         */
        GGSN
    }

    /**
     * A built-in agent for the reals of a farm.
     *
     * @param maxContexts the load at which a real's weight reaches 0 (a GGSN's maximum PDP contexts)
     * @param maxWeight   the weight of an idle real (IOS {@code gprs dfp max-weight}, 1..100, default 8)
     * @param interval    how often the weights are worked out again
     */
    public record BuiltIn(String farm, Formula formula, long maxContexts, int maxWeight, Duration interval) {
    }
}
