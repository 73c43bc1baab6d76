package io.switchboard.app.ios;

import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.IosSlbOptions;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.l4.tcp.TcpOptions;
import java.net.Inet4Address;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.OptionalInt;

/**
 * Writes a configuration back as IOS SLB commands, the inverse of {@link IosTranslator} for what IOS
 * can express: importing the result gives the same model (given the RADIUS secret, which IOS does not
 * hold). What IOS cannot express is written as a {@code !} comment naming the key, so nothing is
 * dropped silently.
 */
public final class IosExporter {

    /** What a masked export writes in place of a secret (the admin API never shows one). */
    static final String MASKED = "*****";

    private final StringBuilder out = new StringBuilder();
    private final boolean masked;
    private int mapIds;

    private IosExporter(boolean masked) {
        this.masked = masked;
    }

    /** The configuration as IOS commands, secrets included: {@code export-ios}, which writes a file to deploy. */
    public static String export(SwitchboardConfig config) {
        return new IosExporter(false).document(config);
    }

    /** The same with every secret masked: what the admin API and {@code show config ios} print. */
    public static String exportMasked(SwitchboardConfig config) {
        return new IosExporter(true).document(config);
    }

    private String document(SwitchboardConfig config) {
        line(0, "! IOS SLB configuration written by switchboard export-ios");
        config.probes().values().forEach(this::probe);
        dfp(config.dfp());
        config.farms().values().forEach(f -> farm(f, config));
        config.virtualServers().values().forEach(vs -> server(vs, config));
        staticNat(config.staticNat());
        if (!config.dispatched().vpnFarms().isEmpty()) {
            line(0, "! vpn-farms (dispatched mode) have no IOS form here");
        }
        if (config.routeHealth().hook().isPresent() || config.routeHealth().bgp().isPresent()) {
            line(0, "! route-health." + (config.routeHealth().bgp().isPresent() ? "bgp" : "hook") + " has no IOS form"
                    + " (IOS installs a static host route for the advertise lines; import with --route-health-hook)");
        }
        line(0, "end");
        return out.toString();
    }

    /** {@code ip slb dfp}: the password and the agents; the node as agent and built-in agents have no IOS form. */
    private void dfp(io.switchboard.director.config.DfpConfig d) {
        if (!d.agents().isEmpty() || d.password().isPresent()) {
            line(0, "ip slb dfp" + d.password().map(p -> " password " + (masked ? MASKED : p)).orElse(""));
            for (io.switchboard.director.config.DfpConfig.Agent a : d.agents()) {
                if (!(a.address() instanceof Inet4Address)) {
                    line(1, "! agent " + a.name() + ": IPv6 agents have no IOS form");
                    continue;
                }
                line(1, "agent " + a.address().getHostAddress() + " " + a.port() + " " + a.timeout().toSeconds() + " "
                        + a.retryCount() + " " + seconds(a.retryInterval()));
            }
            line(0, "!");
        }
        if (d.agent().isPresent() || !d.builtIns().isEmpty()) {
            line(0, "! dfp.agent and dfp.built-in have no IOS SLB form here");
        }
    }

    /** {@code ip slb static {nat {virtual | ADDR} | drop}} with its {@code real ADDR [PORT]} lines. */
    private void staticNat(io.switchboard.director.config.StaticNatConfig n) {
        for (io.switchboard.director.config.StaticNatConfig.Entry e : n.entries()) {
            line(0, e.action() == io.switchboard.director.config.StaticNatConfig.Action.DROP ? "ip slb static drop"
                    : "ip slb static nat " + e.address().map(a -> a.getHostAddress()).orElse("virtual"));
            for (io.switchboard.director.config.StaticNatConfig.Real r : e.reals()) {
                line(1, "real " + r.address().getHostAddress() + (r.port() == 0 ? "" : " " + r.port()));
            }
            line(0, "!");
        }
    }

    private void line(int depth, String text) {
        out.append(" ".repeat(depth)).append(text).append('\n');
    }

    private void probe(ProbeConfig p) {
        ProbeCheck check = p.check();
        String type = check instanceof ProbeCheck.Ping ? "ping" : check instanceof ProbeCheck.TcpConnect ? "tcp"
                : check instanceof ProbeCheck.Http ? "http" : check instanceof ProbeCheck.Udp ? "custom udp" : null;
        if (type == null) {
            line(0, "! probe " + p.name() + " (type " + check.type() + ") has no IOS form");
            return;
        }
        line(0, "ip slb probe " + p.name() + " " + type);
        line(1, "interval " + seconds(p.interval()));
        line(1, "timeout " + seconds(p.timeout()));
        line(1, "faildetect " + p.failures());
        p.port().ifPresent(port -> line(1, "port " + port));
        if (check instanceof ProbeCheck.Http h) {
            line(1, "request method get url " + h.path());
            line(1, "expect status " + h.expectStatus());
            h.host().ifPresent(host -> line(1, "header Host " + host));
        } else if (check instanceof ProbeCheck.Udp u) {
            line(1, "request data 0 " + HexFormat.of().formatHex(u.send()));
            if (u.expect().length > 0) {
                line(1, "response 1 data 0 " + HexFormat.of().formatHex(u.expect()));
            }
        }
        line(0, "!");
    }

    private void farm(FarmConfig f, SwitchboardConfig config) {
        if (f.predictor() == PredictorKind.HASH) {
            firewallFarm(f, config.dispatched().firewallFarms().values().stream()
                    .filter(ff -> ff.farm().equals(f.name())).findFirst());
            return;
        }
        line(0, "ip slb serverfarm " + f.name());
        line(1, "nat server");
        if (config.virtualServers().values().stream().anyMatch(v -> v.farm().equals(f.name()) && !v.clientNat())) {
            line(1, "no nat client"); // the reals see the clients (client-nat: false), as IOS without client NAT
        }
        if (f.predictor() == PredictorKind.LEASTCONNS) {
            line(1, "predictor leastconns");
        } else if (f.predictor() != PredictorKind.ROUNDROBIN) {
            line(1, "! predictor " + f.predictor().configName() + " has no IOS form for a server farm");
        }
        f.slowStart().ifPresent(s -> line(1, "! slow-start has no IOS form here"));
        if (config.dfp().bindId(f.name()) != 0) {
            line(1, "bindid " + config.dfp().bindId(f.name()));
        }
        f.probes().forEach(p -> line(1, "probe " + p));
        if (f.failure().purge()) {
            line(1, "failaction purge");
        }
        OptionalInt reassign = config.virtualServers().values().stream()
                .filter(vs -> vs.farm().equals(f.name()) && vs.options() instanceof TcpOptions)
                .mapToInt(vs -> vs.options(TcpOptions.class).reassign()).findFirst();
        for (RealConfig r : f.reals()) {
            if (!(r.address() instanceof Inet4Address)) {
                line(1, "! real " + r.endpoint() + ": IPv6 reals have no IOS form here");
                continue;
            }
            line(1, "real " + r.address().getHostAddress() + " " + r.port());
            line(2, "weight " + r.weight());
            r.maxconns().ifPresent(n -> line(2, "maxconns " + n));
            r.limits().rate().ifPresent(n -> line(2, "rate " + n));
            r.limits().maxclients().ifPresent(n -> line(2, "maxclients " + n));
            if (!f.failure().inband()) {
                line(2, "no faildetect inband");
            }
            line(2, "faildetect numconns " + f.failure().numconns() + " numclients " + f.failure().numclients());
            line(2, "retry " + seconds(f.failure().retry()));
            reassign.ifPresent(n -> line(2, "reassign " + n));
            r.values().keySet().forEach(key -> line(2, "! " + key.name() + " (" + key.description()
                    + ") has no IOS form"));
            line(2, r.inService() ? "inservice" : "no inservice");
        }
        line(0, "!");
    }

    /**
     * A hash farm is a firewall farm's farm (IOS has the hash predictor only there): its firewalls,
     * with the farm's probes on each, as IOS names probes per firewall, and the dispatched firewall
     * farm's hashing and sticky time. The links have no IOS form: they are written as comments in
     * the form of the firewall links file.
     */
    private void firewallFarm(FarmConfig f, java.util.Optional<DispatchedConfig.FirewallFarm> dispatched) {
        line(0, "ip slb firewallfarm " + f.name());
        for (RealConfig r : f.reals()) {
            line(1, "real " + r.address().getHostAddress());
            line(2, "weight " + r.weight());
            f.probes().forEach(p -> line(2, "probe " + p));
            line(2, r.inService() ? "inservice" : "no inservice");
        }
        line(1, "predictor hash address" + (dispatched.isPresent() && dispatched.get().hashPorts() ? " port" : ""));
        if (!f.failure().equals(io.switchboard.director.config.FailureDetection.DEFAULT)) {
            line(1, "! failure (faildetect/retry) has no IOS form for a firewall farm");
        }
        dispatched.ifPresent(d -> {
            for (String protocol : java.util.List.of("tcp", "datagram")) {
                line(1, "protocol " + protocol);
                line(2, "sticky " + seconds(d.sticky()));
            }
            line(1, "! firewall links: " + d.name() + " outside " + d.outside() + " inside " + d.inside());
            d.firewalls().forEach(fw -> line(1, "! firewall links: " + d.name() + " " + fw.address().getHostAddress()
                    + " " + fw.outside().interfaceName() + " " + fw.outside().mac() + " " + fw.inside().interfaceName()
                    + " " + fw.inside().mac()));
            d.framedIpGroup().ifPresent(g -> line(1, "! framed-ip-group " + g + " has no IOS form here"));
        });
        line(0, "!");
    }

    private void server(VirtualServerConfig vs, SwitchboardConfig config) {
        List<String> pluginLines = pluginOptions(vs);
        if (!(vs.listen().address() instanceof Inet4Address)) {
            line(0, "! virtual server " + vs.name() + " listens on " + vs.listen()
                    + ": IPv6 virtual servers have no IOS form here");
            return;
        }
        if (vs.listen().port() == 0) {
            line(0, "! virtual server " + vs.name() + " listens on an ephemeral port (0), which has no IOS form:"
                    + " IOS's port 0 is every port");
            return;
        }
        line(0, "ip slb vserver " + vs.name());
        String transport = vs.service().equals("tcp") ? "tcp" : "udp";
        String service = switch (vs.service()) {
            case "tcp", "udp" -> "";
            default -> " service " + vs.service();
        };
        line(1, "virtual " + vs.listen().address().getHostAddress() + " " + transport + " " + vs.listen().port()
                + service);
        // The model keeps the backup on the farm; IOS names it on the virtual server's serverfarm line.
        line(1, "serverfarm " + vs.farm() + java.util.Optional.ofNullable(config.farms().get(vs.farm()))
                .flatMap(FarmConfig::backup).map(b -> " backup " + b).orElse(""));
        vs.sticky().ifPresent(s -> sticky(vs.service(), s));
        if (vs.service().equals("udp")) {
            line(1, "idle " + seconds(vs.idle()));
        }
        String requestTimer = IosVirtualServer.requestTimer(vs.service());
        if (!vs.responseTimeout().equals(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT)) {
            line(1, requestTimer != null && vs.responseTimeout().toMillis() % 1000 == 0
                    ? "idle " + requestTimer + " request " + seconds(vs.responseTimeout())
                    : "! response-timeout " + vs.responseTimeout() + " has no IOS form");
        }
        if (vs.maxDatagram() != VirtualServerConfig.DEFAULT_MAX_DATAGRAM) {
            line(1, "! max-datagram has no IOS form");
        }
        options(vs);
        pluginLines.forEach(text -> line(1, text));
        // IOS announces an in-service virtual server unless told otherwise (Cisco IOS SLB Command
        // Reference, "advertise"): the default needs no line, a server Switchboard does not announce does.
        line(1, config.routeHealth().advertise(vs.name())
                .map(when -> when == io.switchboard.director.config.Advertise.ACTIVE ? "advertise active" : "advertise")
                .orElse("no advertise"));
        vs.access().forEach(device -> line(1, "access " + device)); // interface awareness, one line each
        line(1, vs.inService() ? "inservice" : "no inservice");
        line(0, "!");
        // Client-assigned farms are, in IOS, more virtual servers on the same virtual line, each
        // with its client lines and farm (IOS SLB configuration guide, "Client-Assigned Load Balancing").
        for (int i = 0; i < vs.clientFarms().size(); i++) {
            io.switchboard.director.config.ClientFarm entry = vs.clientFarms().get(i);
            line(0, "ip slb vserver " + vs.name() + "-CLIENTS" + (i + 1));
            line(1, "virtual " + vs.listen().address().getHostAddress() + " " + transport + " " + vs.listen().port()
                    + service);
            line(1, "serverfarm " + entry.farm() + java.util.Optional.ofNullable(config.farms().get(entry.farm()))
                    .flatMap(FarmConfig::backup).map(b -> " backup " + b).orElse(""));
            entry.clients().forEach(c -> line(1, clientLine(c)));
            line(1, vs.inService() ? "inservice" : "no inservice");
            line(0, "!");
        }
    }

    /** The sticky lines, one per key, and the protocol idle timer that holds the bindings' idle time. */
    private void sticky(String service, StickyConfig s) {
        String group = s.group().map(g -> " group " + g).orElse("");
        for (StickyKind key : s.keys()) {
            switch (key.configName()) {
                case "client-address" -> line(1, "sticky " + seconds(s.idle()) + group
                        + (s.netmaskBits().isPresent() ? " netmask " + IosValues.mask(s.netmaskBits().getAsInt()) : ""));
                case "imsi" -> line(1, "sticky gtp imsi" + group);
                case "msid" -> line(1, "sticky asn msid" + group);
                case "framed-ip", "calling-station-id", "username" -> line(1, "sticky radius " + key + group);
                default -> line(1, "! sticky key " + key + " has no IOS form");
            }
        }
        String timer = s.keys().contains(StickyKind.CLIENT_ADDRESS) ? null : IosVirtualServer.stickyTimer(service);
        if (timer != null) {
            line(1, "idle " + timer + " " + seconds(s.idle()));
        }
        if (s.maxEntries() != StickyConfig.DEFAULT_MAX_ENTRIES) {
            line(1, "! sticky max-entries has no IOS form");
        }
    }

    private void options(VirtualServerConfig vs) {
        if (vs.options() instanceof TcpOptions t) {
            t.clients().forEach(c -> line(1, clientLine(c)));
            line(1, "idle " + seconds(t.idle()));
            line(1, "delay " + seconds(t.delay()));
            t.synLimit().ifPresent(n -> line(1, "synguard " + n + " " + t.synInterval().toMillis()));
            if (!t.connectTimeout().equals(TcpOptions.DEFAULT_CONNECT_TIMEOUT)) {
                line(1, "! tcp.connect-timeout has no IOS form");
            }
        }
    }

    /**
     * The service's plug-in writes its options: its global commands ({@code ip slb map}s) at once, before
     * the virtual server, which may have no IOS form; its lines of the mode are returned.
     */
    private List<String> pluginOptions(VirtualServerConfig vs) {
        List<String> mode = new ArrayList<>();
        IosSlbOptions.Ios out = new IosSlbOptions.Ios() {
            @Override
            public int mapId() {
                return ++mapIds;
            }

            @Override
            public void global(int depth, String text) {
                IosExporter.this.line(depth, text);
            }

            @Override
            public void line(String text) {
                mode.add(text);
            }

            @Override
            public void client(Subnet subnet) {
                mode.add(clientLine(subnet));
            }
        };
        IosServiceOptions.of(vs.service()).ifPresent(plugin -> plugin.writeIos(vs.options(), vs, out));
        return mode;
    }

    private static String clientLine(Subnet s) {
        return "client " + s.network().getHostAddress() + " " + IosValues.mask(s.prefixLength());
    }

    private static long seconds(Duration d) {
        return Math.max(1, d.toSeconds());
    }
}
