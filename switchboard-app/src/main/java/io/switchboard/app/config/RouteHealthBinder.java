package io.switchboard.app.config;

import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.BgpConfig;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Binds {@code route-health}: the hook, or the BGP speaker Switchboard drives itself
 * ({@code route-health.bgp}), and checks that the virtual servers with {@code advertise} set have
 * one of them. All problems go to the error list given at construction.
 */
final class RouteHealthBinder {

    private static final List<String> DAEMONS = java.util.Arrays.stream(BgpConfig.Daemon.values())
            .map(d -> d.name().toLowerCase(Locale.ROOT)).toList();

    static final Schema NEIGHBOUR = Schema.of("a router the node announces to",
            Key.address("address").required()
                    .note("The router's address; IPv4 neighbours carry the IPv4 VIPs, IPv6 ones the IPv6 VIPs."),
            Key.string("as").shownAs("integer 1..4294967295").required().note("The router's AS, as `local-as`."),
            Key.address("source").byDefault("the daemon's choice")
                    .note("This node's address for the session, of the neighbour's family."));

    static final Schema BGP = Schema.of("the BGP speaker Switchboard drives (deploying-a-cluster.md)",
            Key.oneOf("daemon", DAEMONS).required().note("The speaker on this host."),
            Key.string("local-as").shownAs("integer 1..4294967295").required()
                    .note("Four-octet AS (RFC 6793), not 23456 (AS_TRANS)."),
            Key.address("router-id").byDefault("the daemon's choice").note("IPv4: the BGP identifier (RFC 4271 §4.2)."),
            Key.listOf("neighbours", NEIGHBOUR).required().note("At least one router."),
            Key.list("communities", "strings").byDefault("none")
                    .note("`AS:VALUE` (RFC 1997, each 0..65535) or `A:B:C` (RFC 8092), added to every announcement."),
            Key.bool("bfd").defaultValue(true).note("BFD (RFC 5880) on every session."),
            Key.duration("bfd-interval").defaultValue(BgpConfig.DEFAULT_BFD_INTERVAL).note("10ms..60s, whole"
                    + " milliseconds: the desired transmit and required receive interval."),
            Key.integer("bfd-multiplier", 2, 255).defaultValue(BgpConfig.DEFAULT_BFD_MULTIPLIER)
                    .note("The session is down after this many intervals without a packet."),
            Key.path("include-file").defaultValue(BgpConfig.DEFAULT_INCLUDE_FILE)
                    .note("BIRD only: the file Switchboard writes; its directory must exist."),
            Key.path("socket").byDefault("the daemon's").note("BIRD: its control socket (`birdc -s`); FRR: the vty"
                    + " socket directory (`vtysh --vty_socket`)."));

    static final Schema ROUTE_HEALTH = Schema.of("route health injection: announcing the virtual addresses",
            Key.path("hook").byDefault("none").note("An executable run as `HOOK up|down VIP NAME`; **required** when a"
                    + " virtual server has `advertise: true`, unless `bgp` is set; not with `bgp`."),
            Key.duration("timeout").defaultValue(RouteHealthConfig.DEFAULT_TIMEOUT)
                    .note("A hook still running then is killed and logged."),
            Key.mapping("bgp", BGP).byDefault("none").note("Switchboard drives the node's BGP speaker."));

    /** RFC 6793: four-octet AS numbers. */
    private static final long MAX_AS = 0xFFFF_FFFFL;
    /** RFC 6793 §9: AS_TRANS stands in for a four-octet AS towards old speakers; no node has it. */
    private static final long AS_TRANS = 23456;
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,9}");
    /** FRR's BFD bounds (bfdd: 10..60000 ms); BIRD takes the same. */
    private static final Duration MIN_BFD_INTERVAL = Duration.ofMillis(10);
    private static final Duration MAX_BFD_INTERVAL = Duration.ofSeconds(60);

    private final List<ConfigError> errors;

    RouteHealthBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    RouteHealthConfig bind(Optional<Section> section, Map<String, Advertise> advertised) {
        Optional<java.nio.file.Path> hook = section.flatMap(r -> r.string("hook")).map(Path::of);
        Duration timeout = section.flatMap(r -> r.positiveDuration("timeout")).orElse(RouteHealthConfig.DEFAULT_TIMEOUT);
        Optional<BgpConfig> bgp = section.flatMap(r -> r.section("bgp")).flatMap(this::bgp);
        if (hook.isPresent() && section.get().has("bgp")) {
            error("route-health.bgp", "either a hook or bgp announces the virtual addresses, not both");
        }
        if (!advertised.isEmpty() && hook.isEmpty() && !section.map(s -> s.has("bgp")).orElse(false)) {
            error("route-health.hook", "required (or route-health.bgp): virtual servers " + advertised.keySet()
                    + " have advertise set");
        }
        return new RouteHealthConfig(hook, timeout, advertised, bgp);
    }

    /**
     * {@code advertise: false | true | active | inservice}: empty when not advertised (or refused, by
     * path). {@code true} is {@code active}, what it meant before IOS's default could be chosen.
     */
    static Optional<Advertise> advertise(Section s) {
        Optional<YamlNode> node = s.node("advertise");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        if (node.get() instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.BOOLEAN) {
            return Section.bool(node.get(), s.pathOf("advertise"), s.errors()).filter(b -> b).map(b -> Advertise.ACTIVE);
        }
        Optional<Advertise> when = node.get() instanceof YamlNode.Scalar scalar
                && scalar.kind() == YamlNode.Kind.STRING ? Advertise.named(scalar.text())
                : Optional.empty();
        if (when.isEmpty()) {
            s.error(s.pathOf("advertise"), "must be false, true, active (while a real serves) or inservice"
                    + " (while the virtual server is in service), not " + (node.get() instanceof YamlNode.Scalar sc
                    && sc.kind() == YamlNode.Kind.STRING ? "'" + sc.text() + "'" : node.get().description()));
        }
        return when;
    }

    private Optional<BgpConfig> bgp(Section s) {
        int before = errors.size();
        Optional<BgpConfig.Daemon> daemon = !s.require("daemon", "required: bird or frr") ? Optional.empty()
                : s.string("daemon").flatMap(text -> {
                    try {
                        if (DAEMONS.contains(text)) {
                            return Optional.of(BgpConfig.Daemon.valueOf(text.toUpperCase(Locale.ROOT)));
                        }
                        throw new IllegalArgumentException(text);
                    } catch (IllegalArgumentException e) {
                        error(s.pathOf("daemon"), "must be bird or frr, not '" + text + "'");
                        return Optional.empty();
                    }
                });
        long localAs = s.require("local-as", "required: the node's AS") ? as(s, "local-as") : 0;
        Optional<InetAddress> routerId = address(s, "router-id");
        routerId.filter(id -> !(id instanceof Inet4Address))
                .ifPresent(id -> error(s.pathOf("router-id"), "must be an IPv4 address (RFC 4271 §4.2: four octets)"));
        List<BgpConfig.Neighbour> neighbours = neighbours(s);
        List<String> communities = communities(s);
        boolean bfd = s.bool("bfd").orElse(true);
        Duration interval = s.positiveDuration("bfd-interval").orElse(BgpConfig.DEFAULT_BFD_INTERVAL);
        if (interval.compareTo(MIN_BFD_INTERVAL) < 0 || interval.compareTo(MAX_BFD_INTERVAL) > 0
                || interval.toNanos() % 1_000_000 != 0) {
            error(s.pathOf("bfd-interval"), "must be whole milliseconds, 10ms..60s");
        }
        int multiplier = s.integer("bfd-multiplier").orElse(BgpConfig.DEFAULT_BFD_MULTIPLIER);
        Path includeFile = BgpConfig.DEFAULT_INCLUDE_FILE;
        if (s.has("include-file") && daemon.orElse(null) == BgpConfig.Daemon.FRR) {
            error(s.pathOf("include-file"), "only for daemon: bird (FRR is configured through vtysh)");
        }
        Optional<Path> file = path(s, "include-file");
        if (file.isPresent()) {
            includeFile = file.get();
        }
        Path parent = includeFile.toAbsolutePath().getParent();
        if (daemon.orElse(null) == BgpConfig.Daemon.BIRD && (parent == null || !Files.isDirectory(parent))) {
            error(s.pathOf("include-file"), "the directory of " + includeFile + " does not exist");
        }
        Optional<Path> socket = path(s, "socket");
        if (errors.size() > before || daemon.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BgpConfig(daemon.get(), localAs, routerId, neighbours, communities, bfd, interval,
                multiplier, includeFile, socket));
    }

    private List<BgpConfig.Neighbour> neighbours(Section s) {
        List<BgpConfig.Neighbour> neighbours = new ArrayList<>();
        if (!s.require("neighbours", "required: the routers to announce to")) {
            return neighbours;
        }
        List<YamlNode> items = s.list("neighbours").orElse(List.of());
        if (items.isEmpty() && s.list("neighbours").isPresent()) {
            error(s.pathOf("neighbours"), "must name at least one router");
        }
        for (int i = 0; i < items.size(); i++) {
            s.item("neighbours", items, i).ifPresent(n -> {
                Optional<InetAddress> address = n.require("address", "required") ? address(n, "address") : Optional.empty();
                long as = n.require("as", "required: the router's AS") ? as(n, "as") : 0;
                Optional<InetAddress> source = address(n, "source");
                if (address.isPresent() && source.isPresent()
                        && (address.get() instanceof Inet4Address) != (source.get() instanceof Inet4Address)) {
                    error(n.pathOf("source"), "must be of the neighbour's address family");
                }
                address.ifPresent(a -> neighbours.add(new BgpConfig.Neighbour(a, as, source)));
            });
        }
        return neighbours;
    }

    /** RFC 1997 {@code AS:VALUE} (two 16-bit halves) or RFC 8092 {@code GLOBAL:LOCAL1:LOCAL2} (three 32-bit parts). */
    private List<String> communities(Section s) {
        List<String> communities = new ArrayList<>();
        List<YamlNode> items = s.list("communities").orElse(List.of());
        for (int i = 0; i < items.size(); i++) {
            String path = ConfigPath.index(s.pathOf("communities"), i);
            Section.string(items.get(i), path, errors).ifPresent(text -> {
                String[] parts = text.split(":", -1);
                long max = parts.length == 2 ? 0xFFFF : MAX_AS;
                boolean ok = parts.length == 2 || parts.length == 3;
                for (String part : parts) {
                    ok &= NUMBER.matcher(part).matches() && Long.parseLong(part) <= max;
                }
                if (ok) {
                    communities.add(text);
                } else {
                    error(path, "must be AS:VALUE (RFC 1997, each 0..65535) or A:B:C (RFC 8092, each 0..4294967295),"
                            + " not '" + text + "'");
                }
            });
        }
        return communities;
    }

    private long as(Section s, String key) {
        Optional<String> text = s.string(key);
        if (text.isEmpty()) {
            return 0;
        }
        if (!NUMBER.matcher(text.get()).matches() || Long.parseLong(text.get()) > MAX_AS
                || Long.parseLong(text.get()) == 0) {
            error(s.pathOf(key), "must be an AS number 1..4294967295 (RFC 6793), not '" + text.get() + "'");
            return 0;
        }
        long as = Long.parseLong(text.get());
        if (as == AS_TRANS) {
            error(s.pathOf(key), "23456 is AS_TRANS (RFC 6793 §9), not an AS of a speaker");
        }
        return as;
    }

    private Optional<InetAddress> address(Section s, String key) {
        return s.string(key).flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                error(s.pathOf(key), e.getMessage());
                return Optional.empty();
            }
        });
    }

    private Optional<Path> path(Section s, String key) {
        return s.string(key).flatMap(text -> {
            try {
                return Optional.of(Path.of(text));
            } catch (InvalidPathException e) {
                error(s.pathOf(key), "'" + text + "' is not a file path: " + e.getReason());
                return Optional.empty();
            }
        });
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
