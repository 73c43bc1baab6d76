package io.switchboard.app.config;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Section;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code static-nat:} (docs/transparent.md), IOS {@code ip slb static}: what the kernel does with the
 * traffic the reals open themselves. {@code address: virtual} is resolved here to the listen address
 * of the virtual servers whose farms hold the real, which must be one address.
 */
final class StaticNatBinder {

    private static final Pattern TABLE = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,31}");

    static final Schema REAL = Schema.of("a real of a static NAT entry",
            Key.address("address").required().note("The real's own IPv4 address (the source of what it sends)."),
            Key.integer("port", 1, 65535).byDefault("all its traffic")
                    .note("Only its TCP and UDP traffic from this source port (IOS `real ADDR PORT`)."));

    static final Schema ENTRY = Schema.of("a static NAT entry (an IOS `ip slb static` block)",
            Key.oneOf("action", List.of("nat", "drop")).required()
                    .note("`nat`: the source becomes `address`, answers are translated back; `drop`: dropped."),
            Key.string("address").shownAs("`virtual` or an IPv4 address").byDefault("`virtual`")
                    .note("`nat` only. `virtual`: the listen address of the virtual servers whose farms hold the real."),
            Key.listOf("reals", REAL).required().note("At least one; a real (and port) in one entry only."));

    static final Schema STATIC_NAT = Schema.of("static NAT of the reals' own traffic",
            Key.string("table").byDefault("`" + StaticNatConfig.DEFAULT_TABLE + "`")
                    .note("The nftables table (family ip) the director writes at start and deletes at stop."),
            Key.listOf("entries", ENTRY).required()
                    .note("At least one: each a `nat` or `drop` of the traffic some reals open (IOS `ip slb static` blocks)."));

    private final Map<String, FarmConfig> farms;
    private final Map<String, VirtualServerConfig> servers;

    StaticNatBinder(Map<String, FarmConfig> farms, Map<String, VirtualServerConfig> servers) {
        this.farms = farms;
        this.servers = servers;
    }

    StaticNatConfig bind(Section s) {
        String table = s.string("table").filter(t -> {
            boolean ok = TABLE.matcher(t).matches();
            if (!ok) {
                s.error(s.pathOf("table"), "must be 1..32 letters, digits or '_', starting with a letter");
            }
            return ok;
        }).orElse(StaticNatConfig.DEFAULT_TABLE);
        List<StaticNatConfig.Entry> entries = new ArrayList<>();
        Map<String, String> seen = new HashMap<>();
        if (s.require("entries", "required: at least one entry")) {
            s.list("entries").ifPresent(items -> {
                if (items.isEmpty()) {
                    s.error(s.pathOf("entries"), "must hold at least one entry");
                }
                for (int i = 0; i < items.size(); i++) {
                    s.item("entries", items, i).flatMap(e -> entry(e, seen)).ifPresent(entries::add);
                }
            });
        }
        return new StaticNatConfig(table, entries);
    }

    private Optional<StaticNatConfig.Entry> entry(Section e, Map<String, String> seen) {
        e.require("action", "required: nat or drop");
        Optional<Action> action = e.string("action").flatMap(a -> switch (a) {
            case "nat" -> Optional.of(Action.NAT);
            case "drop" -> Optional.of(Action.DROP);
            default -> {
                e.error(e.pathOf("action"), "must be nat or drop");
                yield Optional.empty();
            }
        });
        Optional<InetAddress> address = Optional.empty();
        boolean addressOk = true;
        Optional<String> text = e.string("address");
        if (text.isPresent() && action.orElse(null) == Action.DROP) {
            e.error(e.pathOf("address"), "only with action: nat");
        } else if (text.isPresent() && !text.get().equals("virtual")) {
            address = ipv4(e, "address", text.get());
            addressOk = address.isPresent();
        }
        List<StaticNatConfig.Real> reals = new ArrayList<>();
        if (e.require("reals", "required: at least one real")) {
            Optional<List<io.switchboard.director.config.bind.YamlNode>> items = e.list("reals");
            if (items.isPresent() && items.get().isEmpty()) {
                e.error(e.pathOf("reals"), "must hold at least one real");
            }
            for (int i = 0; items.isPresent() && i < items.get().size(); i++) {
                Optional<Section> r = e.item("reals", items.get(), i);
                if (r.isEmpty()) {
                    continue;
                }
                Optional<StaticNatConfig.Real> real = real(r.get(), action.orElse(Action.DROP), address, seen);
                real.ifPresent(reals::add);
            }
        }
        if (action.isEmpty() || !addressOk) {
            return Optional.empty();
        }
        return Optional.of(new StaticNatConfig.Entry(action.get(), address, reals));
    }

    private Optional<StaticNatConfig.Real> real(Section r, Action action, Optional<InetAddress> address,
            Map<String, String> seen) {
        r.require("address", "required: the real's IPv4 address");
        Optional<InetAddress> real = r.string("address").flatMap(t -> ipv4(r, "address", t));
        int port = r.integer("port", 1, 65535).orElse(0);
        if (real.isEmpty()) {
            return Optional.empty();
        }
        String key = real.get().getHostAddress() + (port == 0 ? "" : ":" + port);
        String earlier = seen.putIfAbsent(key, r.path());
        if (earlier != null) {
            r.error(r.pathOf("address"), key + " is in static NAT already at " + earlier);
            return Optional.empty();
        }
        Optional<InetAddress> translated = Optional.empty();
        if (action == Action.NAT) {
            translated = address.isPresent() ? address : virtual(r, real.get());
            if (translated.isEmpty()) {
                return Optional.empty();
            }
        }
        return Optional.of(new StaticNatConfig.Real(real.get(), port, translated));
    }

    /** The one virtual address of the virtual servers whose farms (or client farms) hold {@code real}. */
    private Optional<InetAddress> virtual(Section r, InetAddress real) {
        Map<String, InetAddress> found = StaticNatConfig.virtualAddresses(real, farms, servers);
        Set<InetAddress> distinct = new java.util.LinkedHashSet<>(found.values());
        if (distinct.isEmpty()) {
            r.error(r.pathOf("address"), "address: virtual, but no virtual server's farm holds the real "
                    + real.getHostAddress() + ": give the entry an address");
            return Optional.empty();
        }
        if (distinct.size() > 1) {
            List<String> named = new ArrayList<>();
            found.forEach((vs, a) -> named.add(a.getHostAddress() + " (" + vs + ")"));
            r.error(r.pathOf("address"), "address: virtual is ambiguous for " + real.getHostAddress()
                    + ", whose farms serve " + String.join(", ", named) + ": give the entry an address");
            return Optional.empty();
        }
        InetAddress only = distinct.iterator().next();
        if (!(only instanceof Inet4Address)) {
            r.error(r.pathOf("address"), "the virtual address " + only.getHostAddress() + " is not IPv4");
            return Optional.empty();
        }
        return Optional.of(only);
    }

    private static Optional<InetAddress> ipv4(Section s, String key, String text) {
        try {
            InetAddress a = AddressLiterals.parseAddress(text);
            if (a instanceof Inet4Address) {
                return Optional.of(a);
            }
            s.error(s.pathOf(key), "must be an IPv4 address (static NAT writes an nftables table of family ip)");
        } catch (IllegalArgumentException e) {
            s.error(s.pathOf(key), e.getMessage());
        }
        return Optional.empty();
    }
}
