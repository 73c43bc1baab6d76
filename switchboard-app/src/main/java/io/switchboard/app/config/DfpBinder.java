package io.switchboard.app.config;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Durations;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import io.switchboard.director.dfp.DfpFormulas;
import io.switchboard.director.dfp.DfpWire;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code dfp:} (docs/dfp.md): the agents the node connects to as DFP manager, the bind IDs of reals,
 * the node as agent, and the built-in agents, checked against the document's farms. Problems go to
 * the document's error list with their paths.
 */
final class DfpBinder {

    /** A GGSN's {@code gprs maximum-pdp-context-allowed} when none is given (docs/dfp.md). */
    static final int DEFAULT_MAX_CONTEXTS = 10_000;

    /** The formulas of built-in agents, by the name the configuration gives. */
    private static final Map<String, DfpConfig.Formula> FORMULAS = Map.of("ggsn", DfpConfig.Formula.GGSN);

    static final Schema AGENT = Schema.of("a DFP agent the node connects to as manager",
            Key.address("address").required().note("The agent's IPv4 or IPv6 address."),
            Key.integer("port", 1, 65535).required().note("The agent's TCP port."),
            Key.duration("timeout").shownAs("duration or `0`").defaultValue(0).note("The keep-alive timeout"
                    + " (draft-eck-dfp-01 §5.3); `0` never times out."),
            Key.integer("retry-count", 0, 65535).defaultValue(0)
                    .note("Failed connection attempts in a row before giving up; `0`: for ever."),
            Key.duration("retry-interval").defaultValue(DfpConfig.DEFAULT_RETRY_INTERVAL)
                    .note("Time between connection attempts."));

    static final Schema LISTENER = Schema.of("the node as a DFP agent",
            Key.endpoint("listen").required().note("The address and port managers connect to."),
            Key.duration("interval").defaultValue(DfpConfig.DEFAULT_REPORT_INTERVAL).note("How often weights are sent."));

    static final Schema BUILT_IN = Schema.of("a built-in agent, weighing reals that cannot speak DFP",
            Key.name("farm").required().note("The farm whose reals the formula weighs."),
            Key.oneOf("formula", List.copyOf(FORMULAS.keySet())).required()
                    .note("`ggsn`: `max-weight × (max-contexts − contexts) / max-contexts` (dfp.md)."),
            Key.integer("max-contexts", 1, Integer.MAX_VALUE).defaultValue(DEFAULT_MAX_CONTEXTS)
                    .note("The GGSN's maximum PDP contexts (`gprs maximum-pdp-context-allowed`)."),
            Key.integer("max-weight", 1, DfpFormulas.GGSN_MAX_MAX_WEIGHT).defaultValue(DfpFormulas.GGSN_DEFAULT_MAX_WEIGHT)
                    .note("The GGSN's `gprs dfp max-weight`."),
            Key.duration("interval").defaultValue(DfpConfig.DEFAULT_REPORT_INTERVAL).note("How often the weights are computed."));

    static final Schema DFP = Schema.of("Dynamic Feedback Protocol (draft-eck-dfp-01): manager, agent, built-in agents",
            Key.secret("password").byDefault("none").note("1..64 ASCII characters: MD5 security, key ID 0 (§5.1.1);"
                    + " with one, a message without a valid digest is ignored."),
            Key.listOf("agents", AGENT).byDefault("none").note("The agents the node connects to as manager."),
            Key.namedValues("bind-ids", "integer 0..65535").byDefault("`0` for every farm")
                    .note("IOS `bindid`: the bind ID (§5.2) of each farm's reals, by farm name."),
            Key.mapping("agent", LISTENER).byDefault("none").note("The node reports its own weights to managers."),
            Key.listOf("built-in", BUILT_IN).byDefault("none")
                    .note("Agents inside the director, for reals that cannot speak DFP (GGSNs)."));

    private final List<ConfigError> errors;
    private final Map<String, FarmConfig> farms;

    DfpBinder(List<ConfigError> errors, Map<String, FarmConfig> farms) {
        this.errors = errors;
        this.farms = farms;
    }

    DfpConfig bind(Section s) {
        Optional<String> password = s.secret("password").filter(p -> {
            boolean ascii = StandardCharsets.US_ASCII.newEncoder().canEncode(p);
            if (!ascii || p.length() > DfpWire.MAX_KEY) {
                s.error(s.pathOf("password"), "must be 1..64 ASCII characters (draft-eck-dfp-01 §5.1.1)");
            }
            return ascii && p.length() <= DfpWire.MAX_KEY;
        });
        List<DfpConfig.Agent> agents = new ArrayList<>();
        Set<String> agentNames = new HashSet<>();
        items(s, "agents", (a, path) -> agent(a).ifPresent(agent -> {
            if (agentNames.add(agent.name())) {
                agents.add(agent);
            } else {
                a.error(path, "a second agent " + agent.name());
            }
        }));
        Map<String, Integer> bindIds = new LinkedHashMap<>();
        s.namedEntries("bind-ids").ifPresent(m -> m.entries().forEach((farm, node) -> {
            String path = ConfigPath.child(s.pathOf("bind-ids"), farm);
            if (!farms.containsKey(farm)) {
                errors.add(new ConfigError(ConfigPath.shown(path), "no farm named " + farm));
            }
            Section.integer(node, path, errors, 0, 65535).ifPresent(id -> bindIds.put(farm, id));
        }));
        Optional<DfpConfig.AgentListener> listener = s.section("agent").flatMap(l -> {
            l.require("listen", "required: the address and port managers connect to");
            Duration interval = l.positiveDuration("interval").orElse(DfpConfig.DEFAULT_REPORT_INTERVAL);
            return l.endpoint("listen").map(e -> new DfpConfig.AgentListener(e, interval));
        });
        List<DfpConfig.BuiltIn> builtIns = new ArrayList<>();
        items(s, "built-in", (b, path) -> builtIn(b).ifPresent(builtIns::add));
        return new DfpConfig(password, agents, bindIds, listener, builtIns);
    }

    private interface ItemReader {
        void read(Section item, String path);
    }

    private void items(Section s, String key, ItemReader reader) {
        s.list(key).ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf(key), i);
                s.item(key, items, i).ifPresent(item -> reader.read(item, path));
            }
        });
    }

    private Optional<DfpConfig.Agent> agent(Section a) {
        a.require("address", "required: the agent's IPv4 or IPv6 address");
        a.require("port", "required: the agent's TCP port");
        Optional<InetAddress> address = a.string("address").flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                a.error(a.pathOf("address"), e.getMessage());
                return Optional.empty();
            }
        });
        Optional<Integer> port = a.integer("port");
        Duration timeout = a.node("timeout").flatMap(n -> zeroOrMore(n, a.pathOf("timeout"))).orElse(Duration.ZERO);
        int retryCount = a.integer("retry-count").orElse(0);
        Duration retryInterval = a.positiveDuration("retry-interval").orElse(DfpConfig.DEFAULT_RETRY_INTERVAL);
        if (address.isEmpty() || port.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DfpConfig.Agent(address.get(), port.get(), timeout, retryCount, retryInterval));
    }

    /** A duration of zero or more (a keep-alive of 0: never time out, draft-eck-dfp-01 §5.3). */
    private Optional<Duration> zeroOrMore(YamlNode n, String path) {
        if (n instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.INTEGER && scalar.text().equals("0")) {
            return Optional.of(Duration.ZERO);
        }
        if (!(n instanceof YamlNode.Scalar scalar) || scalar.kind() == YamlNode.Kind.BOOLEAN
                || scalar.kind() == YamlNode.Kind.NULL) {
            errors.add(new ConfigError(ConfigPath.shown(path), Durations.NOT_A_DURATION));
            return Optional.empty();
        }
        try {
            Duration d = Durations.parse(scalar.text());
            if (d.isNegative()) {
                errors.add(new ConfigError(ConfigPath.shown(path), "must not be negative"));
                return Optional.empty();
            }
            return Optional.of(d);
        } catch (IllegalArgumentException e) {
            errors.add(new ConfigError(ConfigPath.shown(path), e.getMessage()));
            return Optional.empty();
        }
    }

    private Optional<DfpConfig.BuiltIn> builtIn(Section b) {
        b.require("farm", "required: the farm whose reals the formula weighs");
        b.require("formula", "required: ggsn");
        Optional<String> farm = b.string("farm").filter(f -> knownFarm(b, f));
        Optional<DfpConfig.Formula> formula = b.string("formula").flatMap(f -> {
            if (FORMULAS.containsKey(f)) {
                return Optional.of(FORMULAS.get(f));
            }
            b.error(b.pathOf("formula"), "must be ggsn (a home agent's formula is the admin API's load endpoint)");
            return Optional.empty();
        });
        int maxContexts = b.integer("max-contexts").orElse(DEFAULT_MAX_CONTEXTS);
        int maxWeight = b.integer("max-weight")
                .orElse(DfpFormulas.GGSN_DEFAULT_MAX_WEIGHT);
        Duration interval = b.positiveDuration("interval").orElse(DfpConfig.DEFAULT_REPORT_INTERVAL);
        if (farm.isEmpty() || formula.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DfpConfig.BuiltIn(farm.get(), formula.get(), maxContexts, maxWeight, interval));
    }

    private boolean knownFarm(Section s, String farm) {
        if (!farms.containsKey(farm)) {
            s.error(s.pathOf("farm"), "no farm named " + farm);
            return false;
        }
        return true;
    }
}
