package io.switchboard.app.config;

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

    static final List<String> KEYS = List.of("password", "agents", "bind-ids", "agent", "built-in");
    static final List<String> AGENT_KEYS = List.of("address", "port", "timeout", "retry-count", "retry-interval");
    static final List<String> LISTENER_KEYS = List.of("listen", "interval");
    static final List<String> BUILT_IN_KEYS = List.of("farm", "formula", "max-contexts", "max-weight", "interval");
    /** A GGSN's {@code gprs maximum-pdp-context-allowed} when none is given (docs/dfp.md). */
    static final int DEFAULT_MAX_CONTEXTS = 10_000;

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
        items(s, "agents", AGENT_KEYS, (a, path) -> agent(a).ifPresent(agent -> {
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
        Optional<DfpConfig.AgentListener> listener = s.section("agent", LISTENER_KEYS).flatMap(l -> {
            l.require("listen", "required: the address and port managers connect to");
            Duration interval = l.positiveDuration("interval").orElse(DfpConfig.DEFAULT_REPORT_INTERVAL);
            return l.endpoint("listen").map(e -> new DfpConfig.AgentListener(e, interval));
        });
        List<DfpConfig.BuiltIn> builtIns = new ArrayList<>();
        items(s, "built-in", BUILT_IN_KEYS, (b, path) -> builtIn(b).ifPresent(builtIns::add));
        return new DfpConfig(password, agents, bindIds, listener, builtIns);
    }

    private interface ItemReader {
        void read(Section item, String path);
    }

    private void items(Section s, String key, List<String> known, ItemReader reader) {
        s.list(key).ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf(key), i);
                Section.open(items.get(i), path, errors, known).ifPresent(item -> reader.read(item, path));
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
        Optional<Integer> port = a.integer("port", 1, 65535);
        Duration timeout = a.node("timeout").flatMap(n -> zeroOrMore(n, a.pathOf("timeout"))).orElse(Duration.ZERO);
        int retryCount = a.integer("retry-count", 0, 65535).orElse(0);
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
            if (f.equals("ggsn")) {
                return Optional.of(DfpConfig.Formula.GGSN);
            }
            b.error(b.pathOf("formula"), "must be ggsn (a home agent's formula is the admin API's load endpoint)");
            return Optional.empty();
        });
        int maxContexts = b.integer("max-contexts", 1, Integer.MAX_VALUE).orElse(DEFAULT_MAX_CONTEXTS);
        int maxWeight = b.integer("max-weight", 1, DfpFormulas.GGSN_MAX_MAX_WEIGHT)
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
