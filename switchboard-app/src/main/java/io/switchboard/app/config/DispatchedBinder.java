package io.switchboard.app.config;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code firewall-farms:} and {@code vpn-farms:} (dispatched mode), checked against the farms and
 * virtual servers of the document: the farm exists (with {@code predictor: hash} for a firewall
 * farm), every real of it has its links and every link names a real of it, sticky groups are used by
 * a virtual server. Problems go to the document's error list with their paths.
 */
final class DispatchedBinder {

    static final Duration DEFAULT_STICKY = Duration.ofMinutes(1);
    /**
     * IANA protocol numbers: ESP (RFC 4303) 50, GRE (RFC 2784; PPTP's enhanced GRE, RFC 2637) 47, TCP
     * (RFC 9293) 6, UDP (RFC 768) 17; {@code any}: every protocol (IOS {@code virtual ADDR any 0}).
     * In this order in messages and the reference.
     */
    static final Map<String, Integer> PROTOCOLS = orderedProtocols();
    /** The protocols whose packets belong to a client's IKE or PPTP binding: they need its sticky group. */
    private static final Set<Integer> TUNNELS = Set.of(50, 47);

    private static Map<String, Integer> orderedProtocols() {
        Map<String, Integer> p = new java.util.LinkedHashMap<>();
        p.put("esp", 50);
        p.put("gre", 47);
        p.put("tcp", DispatchedConfig.VpnFarm.TCP);
        p.put("udp", DispatchedConfig.VpnFarm.UDP);
        p.put("any", DispatchedConfig.VpnFarm.ANY);
        return java.util.Collections.unmodifiableMap(p);
    }

    private static final Key MAC_KEY = Key.string("mac").shownAs("MAC address").required()
            .note("Six hex pairs separated by `:` (`02:00:5e:00:01:02`).");
    private static final Key LINK_INTERFACE = Key.string("interface").shownAs("interface name").required()
            .note("Linux interface name (1..15 characters) where frames for that leg go out.");

    static final Schema LINK = Schema.of("one leg of a firewall", LINK_INTERFACE,
            MAC_KEY.note("The firewall's MAC on that leg."));

    static final Schema FIREWALL = Schema.of("a firewall: one real of the firewall farm's farm",
            Key.address("address").required().note("IPv4: the firewall's real in `farm`."),
            Key.mapping("outside", LINK).required().note("`{ interface, mac }` of the firewall's outside leg."),
            Key.mapping("inside", LINK).required().note("`{ interface, mac }` of the firewall's inside leg."));

    static final Schema FIREWALL_FARM = Schema.of("a firewall farm (dispatched mode)",
            Key.name("farm").required().note("The farm of the firewalls; must have `predictor: hash` (both directions,"
                    + " and both directors of a sandwich, choose alike)."),
            Key.string("outside").shownAs("interface name").required().note("Linux interface name (1..15 characters)."),
            Key.string("inside").shownAs("interface name").required().note("Not the same as `outside`."),
            Key.bool("hash-ports").defaultValue(false).note("`true`: a flow is the addresses and the ports; an address"
                    + " pair's new connections still stick to its firewall for `sticky`."),
            Key.duration("sticky").defaultValue(DEFAULT_STICKY)
                    .note("How long a flow keeps its firewall after its last frame."),
            Key.listOf("firewalls", FIREWALL).required().note("One entry per real of `farm`, matched by `address`."),
            Key.name("framed-ip-group").byDefault("none").note("A sticky group holding `framed-ip` bindings: a flow"
                    + " whose inside address is bound there goes through the firewall of the bound real's address."));

    static final Schema VPN_REAL = Schema.of("the link of a real of a VPN farm",
            Key.address("address").required().note("IPv4: a real of the farm."),
            LINK_INTERFACE.note("Where its frames go out."),
            MAC_KEY.note("The real's MAC."));

    static final Schema VPN_FARM = Schema.of("a VPN farm: ESP and GRE dispatched to the IKE/PPTP real (dispatched mode)",
            Key.name("farm").required().note("The farm whose reals terminate the tunnels."),
            Key.string("interface").shownAs("interface name").required().note("Where the clients' ESP/GRE arrive."),
            Key.address("address").required().note("IPv4: the virtual address the tunnel packets are sent to."),
            Key.list("protocols", String.join(", ", PROTOCOLS.keySet().stream().map(p -> "`" + p + "`").toList()))
                    .defaultValue(List.of("esp", "gre"))
                    .note("The IP protocols dispatched; `tcp`, `udp` or `any` (alone) make an all-port farm (IOS"
                            + " `virtual ADDR tcp|udp|any 0`), which leaves UDP to the GTP ports 2123, 2152, 3386 to the host."),
            Key.name("sticky-group").byDefault("**required** with `esp` or `gre`")
                    .note("The sticky group of the IKE and PPTP virtual servers."),
            Key.duration("sticky").defaultValue(DispatchedConfig.VpnFarm.DEFAULT_STICKY)
                    .note("Without `sticky-group` (an all-port farm): how long a client keeps its real after its last packet."),
            Key.listOf("reals", VPN_REAL).required().note("One entry per real of `farm`."));

    private static final Pattern MAC = Pattern.compile("[0-9a-f]{2}(:[0-9a-f]{2}){5}");
    /** Linux interface names: at most 15 octets (IFNAMSIZ - 1), no '/', ':' or blanks. */
    private static final Pattern INTERFACE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    private final List<ConfigError> errors;
    private final Map<String, FarmConfig> farms;
    private final Set<String> farmNames;
    private final Map<String, VirtualServerConfig> servers;

    DispatchedBinder(List<ConfigError> errors, Map<String, FarmConfig> farms, Set<String> farmNames,
            Map<String, VirtualServerConfig> servers) {
        this.errors = errors;
        this.farms = farms;
        this.farmNames = farmNames;
        this.servers = servers;
    }

    DispatchedConfig bind(Section doc) {
        Map<String, DispatchedConfig.FirewallFarm> firewallFarms = new LinkedHashMap<>();
        doc.named("firewall-farms").forEach((name, s) -> firewallFarm(name, s)
                .ifPresent(f -> firewallFarms.put(name, f)));
        Map<String, DispatchedConfig.VpnFarm> vpnFarms = new LinkedHashMap<>();
        doc.named("vpn-farms").forEach((name, s) -> vpnFarm(name, s)
                .ifPresent(f -> vpnFarms.put(name, f)));
        return new DispatchedConfig(firewallFarms, vpnFarms);
    }

    private Optional<DispatchedConfig.FirewallFarm> firewallFarm(String name, Section s) {
        int before = errors.size();
        Optional<FarmConfig> farm = farm(s);
        farm.filter(f -> f.predictor() != PredictorKind.HASH).ifPresent(f -> s.error(s.pathOf("farm"),
                "farm '" + f.name() + "' must have predictor: hash (both directions of a flow, and both directors of a"
                        + " firewall sandwich, must choose the same firewall)"));
        Optional<String> outside = iface(s, "outside");
        Optional<String> inside = iface(s, "inside");
        if (outside.isPresent() && outside.equals(inside)) {
            s.error(s.pathOf("inside"), "must not be the outside interface");
        }
        boolean hashPorts = s.bool("hash-ports").orElse(false);
        Duration sticky = s.positiveDuration("sticky").orElse(DEFAULT_STICKY);
        List<DispatchedConfig.Firewall> firewalls = new ArrayList<>();
        List<InetAddress> addresses = new ArrayList<>(); // of entries with a readable address, even if broken otherwise
        if (s.require("firewalls", "required: the links of each firewall")) {
            s.list("firewalls").ifPresent(items -> {
                for (int i = 0; i < items.size(); i++) {
                    s.item("firewalls", items, i).flatMap(f -> firewall(f, addresses))
                            .ifPresent(firewalls::add);
                }
            });
        }
        farm.ifPresent(f -> matchReals(s, "firewalls", f, addresses));
        Optional<String> framedIpGroup = s.string("framed-ip-group");
        framedIpGroup.ifPresent(group -> requireGroup(s.pathOf("framed-ip-group"), group));
        if (errors.size() != before || farm.isEmpty() || outside.isEmpty() || inside.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DispatchedConfig.FirewallFarm(name, farm.get().name(), outside.get(), inside.get(),
                hashPorts, sticky, firewalls, framedIpGroup));
    }

    private Optional<DispatchedConfig.Firewall> firewall(Section s, List<InetAddress> addresses) {
        Optional<InetAddress> address = ipv4(s, "address");
        address.ifPresent(addresses::add);
        Optional<DispatchedConfig.Link> outside = s.section("outside").flatMap(this::link);
        Optional<DispatchedConfig.Link> inside = s.section("inside").flatMap(this::link);
        s.require("outside", "required: { interface, mac } of the firewall's outside leg");
        s.require("inside", "required: { interface, mac } of the firewall's inside leg");
        if (address.isEmpty() || outside.isEmpty() || inside.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DispatchedConfig.Firewall(address.get(), outside.get(), inside.get()));
    }

    private Optional<DispatchedConfig.Link> link(Section s) {
        Optional<String> iface = iface(s, "interface");
        Optional<String> mac = mac(s);
        return iface.isPresent() && mac.isPresent() ? Optional.of(new DispatchedConfig.Link(iface.get(), mac.get()))
                : Optional.empty();
    }

    private Optional<DispatchedConfig.VpnFarm> vpnFarm(String name, Section s) {
        int before = errors.size();
        Optional<FarmConfig> farm = farm(s);
        Optional<String> iface = iface(s, "interface");
        Optional<InetAddress> address = ipv4(s, "address");
        Set<Integer> protocols = new LinkedHashSet<>();
        s.list("protocols").ifPresentOrElse(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf("protocols"), i);
                Section.string(items.get(i), path, errors).ifPresent(text -> {
                    Integer number = PROTOCOLS.get(text);
                    if (number == null) {
                        s.error(path, "unknown protocol '" + text + "' (known: "
                                + String.join(", ", PROTOCOLS.keySet()) + ")");
                    } else if (!protocols.add(number)) {
                        s.error(path, "'" + text + "' listed twice");
                    }
                });
            }
            if (items.isEmpty()) {
                s.error(s.pathOf("protocols"), "must list esp, gre, tcp, udp or any");
            } else if (protocols.contains(DispatchedConfig.VpnFarm.ANY) && protocols.size() > 1) {
                s.error(s.pathOf("protocols"), "any is every protocol: list it alone");
            }
        }, () -> protocols.addAll(List.of(50, 47)));
        // ESP and GRE follow the client's IKE or PPTP binding, so they need its group; an all-port
        // farm (tcp, udp, any) may keep its clients in a table of its own instead.
        boolean tunnels = protocols.stream().anyMatch(TUNNELS::contains);
        Optional<String> group = !tunnels && !s.has("sticky-group") ? Optional.empty()
                : s.require("sticky-group", "required with esp or gre: the sticky group of the IKE and PPTP virtual servers")
                ? s.string("sticky-group") : Optional.empty();
        group.ifPresent(g -> requireGroup(s.pathOf("sticky-group"), g));
        Duration sticky = s.positiveDuration("sticky").orElse(DispatchedConfig.VpnFarm.DEFAULT_STICKY);
        if (s.has("sticky") && s.has("sticky-group")) {
            s.error(s.pathOf("sticky"), "the sticky group's virtual servers set how long a client is kept");
        }
        address.ifPresent(a -> portBoundConflicts(s, a, protocols));
        List<DispatchedConfig.VpnReal> reals = new ArrayList<>();
        List<InetAddress> addresses = new ArrayList<>();
        if (s.require("reals", "required: the link of each real")) {
            s.list("reals").ifPresent(items -> {
                for (int i = 0; i < items.size(); i++) {
                    s.item("reals", items, i).ifPresent(r -> {
                        Optional<InetAddress> a = ipv4(r, "address");
                        a.ifPresent(addresses::add);
                        Optional<String> i2 = iface(r, "interface");
                        Optional<String> m = mac(r);
                        if (a.isPresent() && i2.isPresent() && m.isPresent()) {
                            reals.add(new DispatchedConfig.VpnReal(a.get(), new DispatchedConfig.Link(i2.get(), m.get())));
                        }
                    });
                }
            });
        }
        farm.ifPresent(f -> matchReals(s, "reals", f, addresses));
        if (errors.size() != before || farm.isEmpty() || iface.isEmpty() || address.isEmpty()
                || (tunnels && group.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(new DispatchedConfig.VpnFarm(name, farm.get().name(), iface.get(), address.get(), protocols,
                group, sticky, reals));
    }

    /**
     * An all-port farm captures every port of its protocols on the address, while a virtual server
     * there has a socket the host's kernel also delivers to: both would serve one packet. So a TCP
     * virtual server on the address is refused with tcp (or any), a datagram one with udp (or any)
     * unless on a GTP port, which the all-port farm leaves to the host as IOS does.
     */
    private void portBoundConflicts(Section s, InetAddress address, Set<Integer> protocols) {
        boolean tcp = protocols.contains(DispatchedConfig.VpnFarm.TCP) || protocols.contains(DispatchedConfig.VpnFarm.ANY);
        boolean udp = protocols.contains(DispatchedConfig.VpnFarm.UDP) || protocols.contains(DispatchedConfig.VpnFarm.ANY);
        for (VirtualServerConfig vs : servers.values()) {
            if (!vs.listen().address().equals(address)) {
                continue;
            }
            boolean vsTcp = io.switchboard.director.spi.Plugins.installed().service(vs.service())
                    .map(service -> service.spec().transport() == io.switchboard.director.spi.ServiceSpec.Transport.TCP)
                    .orElse(false);
            int port = vs.listen().port();
            if (vsTcp ? tcp : udp && !DispatchedConfig.VpnFarm.GTP_PORTS.contains(port)) {
                s.error(s.pathOf("protocols"), "virtual server '" + vs.name() + "' listens on "
                        + address.getHostAddress() + ":" + port + (vsTcp ? "/tcp" : "/udp")
                        + ", a port this all-port farm dispatches (only the GTP ports 2123, 2152, 3386 are left to"
                        + " the host)");
            }
        }
    }

    private Optional<FarmConfig> farm(Section s) {
        if (!s.require("farm", "required: the farm whose reals these are")) {
            return Optional.empty();
        }
        return s.string("farm").flatMap(name -> {
            FarmConfig farm = farms.get(name);
            if (farm == null && !farmNames.contains(name)) {
                s.error(s.pathOf("farm"), "no farm named '" + name + "'");
            }
            return Optional.ofNullable(farm);
        });
    }

    /** Each real of the farm needs its links, once; each link must name a real of the farm. */
    private void matchReals(Section s, String key, FarmConfig farm, List<InetAddress> linked) {
        Set<InetAddress> realAddresses = new HashSet<>();
        for (RealConfig real : farm.reals()) {
            realAddresses.add(real.endpoint().address());
        }
        Set<InetAddress> seen = new HashSet<>();
        for (int i = 0; i < linked.size(); i++) {
            InetAddress a = linked.get(i);
            String path = ConfigPath.child(ConfigPath.index(s.pathOf(key), i), "address");
            if (!realAddresses.contains(a)) {
                s.error(path, a.getHostAddress() + " is not the address of a real of farm '" + farm.name() + "'");
            } else if (!seen.add(a)) {
                s.error(path, a.getHostAddress() + " listed twice");
            }
        }
        for (InetAddress a : realAddresses) {
            if (!seen.contains(a)) {
                s.error(s.pathOf(key), "no entry for real " + a.getHostAddress() + " of farm '" + farm.name() + "'");
            }
        }
    }

    private void requireGroup(String path, String group) {
        boolean used = servers.values().stream().anyMatch(vs -> vs.sticky().flatMap(StickyConfig::group)
                .filter(group::equals).isPresent());
        if (!used) {
            errors.add(new ConfigError(path, "no virtual server has sticky group '" + group + "'"));
        }
    }

    private Optional<String> iface(Section s, String key) {
        if (!s.require(key, "required: an interface name")) {
            return Optional.empty();
        }
        return s.string(key).filter(name -> {
            if (!INTERFACE.matcher(name).matches()) {
                s.error(s.pathOf(key), "'" + name + "' is not an interface name (1..15 letters, digits, '_', '.', '-', '@')");
                return false;
            }
            return true;
        });
    }

    private Optional<String> mac(Section s) {
        if (!s.require("mac", "required: the MAC address, e.g. 02:00:5e:00:01:02")) {
            return Optional.empty();
        }
        return s.string("mac").map(String::toLowerCase).filter(mac -> {
            if (!MAC.matcher(mac).matches()) {
                s.error(s.pathOf("mac"), "'" + mac + "' is not a MAC address (six hex pairs separated by ':')");
                return false;
            }
            return true;
        });
    }

    private Optional<InetAddress> ipv4(Section s, String key) {
        if (!s.require(key, "required: an IPv4 address")) {
            return Optional.empty();
        }
        return s.string(key).flatMap(text -> {
            try {
                InetAddress a = AddressLiterals.parseAddress(text);
                if (!(a instanceof Inet4Address)) {
                    s.error(s.pathOf(key), "dispatched mode is IPv4 only");
                    return Optional.empty();
                }
                return Optional.of(a);
            } catch (IllegalArgumentException e) {
                s.error(s.pathOf(key), e.getMessage());
                return Optional.empty();
            }
        });
    }
}
