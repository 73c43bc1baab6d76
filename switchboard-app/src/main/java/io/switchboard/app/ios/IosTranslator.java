package io.switchboard.app.ios;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.DebugCaptureConfig;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Translates a parsed IOS SLB configuration into the records the YAML binder builds, with a report
 * of every line. The result is not validated here: {@code import-ios} writes it as YAML and loads
 * that back through the configuration loader, which checks it as it checks any document.
 */
public final class IosTranslator {

    /**
     * What the translation needs that an IOS configuration does not hold.
     *
     * @param radiusSecret  the shared secret of the RADIUS clients (IOS SLB relays RADIUS without it;
     *                      Switchboard verifies every request)
     * @param firewallLinks by firewall farm name, the interfaces and MAC addresses of its firewalls
     * @param routeHealthHook the {@code route-health.hook} that announces the virtual addresses as IOS's
     *                        {@code advertise} does ({@link IosRouteHealth}); none: nothing is announced
     */
    public record Options(Optional<String> radiusSecret, Map<String, IosFirewallLinks.Farm> firewallLinks,
            Optional<java.nio.file.Path> routeHealthHook) {
        public static final Options NONE = new Options(Optional.empty());

        public Options {
            firewallLinks = Map.copyOf(firewallLinks);
        }

        /** Without a route-health hook: nothing is announced. */
        public Options(Optional<String> radiusSecret, Map<String, IosFirewallLinks.Farm> firewallLinks) {
            this(radiusSecret, firewallLinks, Optional.empty());
        }

        /** Without firewall links. */
        public Options(Optional<String> radiusSecret) {
            this(radiusSecret, Map.of());
        }
    }

    private final Options options;

    public IosTranslator(Options options) {
        this.options = options;
    }

    /** Parses and translates IOS text. @throws IosSyntaxException naming the line that stops it */
    public IosTranslation translate(String iosText) {
        return translate(new IosConfigParser().parse(iosText));
    }

    IosTranslation translate(IosConfig ios) {
        IosLedger ledger = new IosLedger();
        ios.skipped().forEach(s -> ledger.report.add(s.line(), s.text(), s.outcome(), s.why()));
        IosFarmReader farmReader = new IosFarmReader(ledger);
        IosProbes probeReader = new IosProbes(ledger);
        IosFirewallFarms firewallReader = new IosFirewallFarms(ledger, farmReader, options.firewallLinks());
        Map<String, IosFarm> farms = new LinkedHashMap<>();
        Set<String> firewallFarms = new HashSet<>();
        Map<String, ProbeConfig> probes = new LinkedHashMap<>();
        Set<String> untranslatedProbes = new HashSet<>();
        Map<String, IosServerBuilder.GtpMap> maps = new LinkedHashMap<>();
        List<IosCommand> vservers = new ArrayList<>();
        IosDfp dfp = new IosDfp(ledger);
        IosStaticNat staticNat = new IosStaticNat(ledger);
        for (IosCommand c : ios.commands()) {
            if (c.negated()) {
                ledger.implied(c, "removes what is not configured");
                continue;
            }
            switch (c.keyword()) {
                case "serverfarm" -> put(farms, farmReader.serverFarm(c), c);
                case "firewallfarm" -> {
                    IosFarm f = firewallReader.read(c);
                    put(farms, f, c);
                    firewallFarms.add(f.name);
                }
                case "vserver" -> vservers.add(c);
                case "probe" -> {
                    Optional<ProbeConfig> probe = probeReader.read(c);
                    probe.ifPresent(p -> probes.put(p.name(), p));
                    if (probe.isEmpty()) {
                        untranslatedProbes.add(c.arg(0));
                    }
                }
                case "map" -> map(ledger, c, maps);
                case "dfp" -> dfp.read(c);
                case "static" -> staticNat.read(c);
                default -> global(ledger, c);
            }
        }
        for (IosFarm farm : farms.values()) {
            probeReferences(ledger, farm, probes.keySet(), untranslatedProbes);
        }
        IosVirtualServerReader reader = new IosVirtualServerReader(ledger);
        List<IosVirtualServer> drafts = new ArrayList<>();
        for (IosCommand c : vservers) {
            reader.read(c).ifPresent(drafts::add);
        }
        IosFarmBuilder farmBuilder = new IosFarmBuilder(ledger, farms, firewallFarms);
        IosServerBuilder serverBuilder = new IosServerBuilder(ledger, farmBuilder, maps, options.radiusSecret());
        drafts.forEach(serverBuilder::declare);
        IosClientFarms clientFarms = new IosClientFarms(ledger);
        List<IosVirtualServer> kept = clientFarms.group(drafts);
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        for (IosVirtualServer vs : kept) {
            VirtualServerConfig built = serverBuilder.build(vs);
            List<io.switchboard.director.config.ClientFarm> entries = clientFarms.entries(vs, farmBuilder);
            if (!entries.isEmpty()) {
                built = new VirtualServerConfig(built.name(), built.listen(), built.service(), built.farm(),
                        built.sticky(), built.responseTimeout(), built.idle(), built.maxDatagram(), built.inService(),
                        built.options(), built.overload(), entries, built.clientNat(), built.access());
            }
            if (servers.putIfAbsent(vs.name, built) != null) {
                throw vs.command.error(0, "a second ip slb vserver " + vs.name);
            }
        }
        Map<String, DispatchedConfig.FirewallFarm> dispatched = firewallReader.build(farmBuilder);
        Map<String, FarmConfig> farmConfigs = farmBuilder.build();
        farmBuilder.reportUnusedReassign();
        dfp.farmsBuilt(farms.values(), farmConfigs.keySet());
        maps.forEach((id, map) -> {
            if (serverBuilder.used(id)) {
                ledger.translated(map.command(), "gtp.apn-maps of the virtual servers naming map " + id);
                map.apns().forEach(apn -> ledger.translated(apn, "gtp.apn-maps[].apn"));
            } else {
                ignoredWithChildren(ledger, map.command(), "not used by any virtual server");
            }
        });
        RouteHealthConfig routeHealth = IosRouteHealth.of(ledger, kept, options.routeHealthHook());
        SwitchboardConfig config = new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farmConfigs,
                servers, probes, routeHealth, DebugCaptureConfig.DEFAULT,
                new DispatchedConfig(dispatched, Map.of()), io.switchboard.director.config.PersistenceConfig.NONE,
                dfp.config(), staticNat.config(farmConfigs, servers));
        return new IosTranslation(config, ledger.report, ledger.sources);
    }

    private static void put(Map<String, IosFarm> farms, IosFarm farm, IosCommand c) {
        if (farms.putIfAbsent(farm.name, farm) != null) {
            throw c.error(0, "a second farm named " + farm.name);
        }
    }

    /** A farm's {@code probe} lines that name a probe that is not translated are unsupported and dropped. */
    private static void probeReferences(IosLedger ledger, IosFarm farm, Set<String> translated, Set<String> not) {
        for (int i = farm.probeLines.size() - 1; i >= 0; i--) {
            IosCommand line = farm.probeLines.get(i);
            String name = farm.probes.get(i);
            if (translated.contains(name)) {
                continue;
            }
            if (!not.contains(name)) {
                throw line.error(0, "no ip slb probe named " + name);
            }
            ledger.unsupported(line, "probe " + name + ", which is not translated");
            farm.probes.remove(i);
            farm.probeLines.remove(i);
        }
        farm.repeatedProbes.entrySet().removeIf(repeat -> {
            if (translated.contains(repeat.getValue())) {
                return false;
            }
            ledger.unsupported(repeat.getKey(), "probe " + repeat.getValue() + ", which is not translated");
            return true;
        });
    }

    private static void map(IosLedger ledger, IosCommand c, Map<String, IosServerBuilder.GtpMap> maps) {
        String id = IosValues.name(c, 0, "the map id");
        if (c.isKeyword(1, "radius")) {
            unsupportedWithChildren(ledger, c, "RADIUS maps (farm selection by Calling-Station-Id or User-Name)");
            return;
        }
        if (!c.isKeyword(1, "gtp")) {
            throw c.error(1, "expected gtp or radius");
        }
        List<IosCommand> apns = new ArrayList<>();
        for (IosCommand child : c.children()) {
            if (!child.keyword().equals("apn") || child.negated()) {
                throw child.error(0, "a gtp map takes 'apn PATTERN' lines");
            }
            String apn = IosValues.name(child, 0, "the APN");
            if (!apn.matches("[A-Za-z0-9*?-]+(\\.[A-Za-z0-9*?-]+)*")) {
                throw child.error(0, "'" + apn + "': Switchboard's APN patterns are dotted labels with * and ?");
            }
            apns.add(child);
        }
        maps.put(id, new IosServerBuilder.GtpMap(c, apns));
    }

    /** The other {@code ip slb} global commands. */
    private static void global(IosLedger ledger, IosCommand c) {
        switch (c.keyword()) {
            case "route" -> ledger.unsupported(c, "ip slb route: Framed-IP routing is a firewall farm's"
                    + " framed-ip-group in Switchboard, written by hand");
            case "timers" -> ledger.implied(c, "gtp-inspect sessions end with their Delete or after"
                    + " gtp.session-idle; there is no per-GSN state to time out");
            case "entries" -> ledger.implied(c, "tables grow as needed; sticky.max-entries bounds each sticky"
                    + " table");
            case "natpool" -> ledger.implied(c, "the director forwards from its own address (no pool)");
            case "replicate" -> ledger.implied(c, "the cluster replicates sticky tables to every node");
            case "maxbuffers" -> ledger.implied(c, "no fragment buffers: datagrams are handled whole");
            case "mode" -> ledger.ignored(c, IosConfigParser.HARDWARE);
            case "capp" -> ledger.unsupported(c, "the KAL-AP agent (ip slb capp): no public KAL-AP or CAPP wire"
                    + " format to answer a GSS with (docs/dfp.md)");
            default -> ledger.unsupported(c, "ip slb " + c.keyword());
        }
    }

    /** A mode that cannot be translated: its line and every line of it, unsupported for one reason. */
    static void unsupportedWithChildren(IosLedger ledger, IosCommand c, String why) {
        ledger.unsupported(c, why);
        descendants(c).forEach(child -> ledger.unsupported(child, "part of line " + c.line() + ": " + why));
    }

    /** A mode without effect: its line and every line of it, ignored for one reason. */
    static void ignoredWithChildren(IosLedger ledger, IosCommand c, String why) {
        ledger.ignored(c, why);
        descendants(c).forEach(child -> ledger.ignored(child, "part of line " + c.line() + ": " + why));
    }

    private static List<IosCommand> descendants(IosCommand c) {
        List<IosCommand> all = new ArrayList<>();
        for (IosCommand child : c.children()) {
            all.add(child);
            all.addAll(descendants(child));
        }
        return all;
    }
}
