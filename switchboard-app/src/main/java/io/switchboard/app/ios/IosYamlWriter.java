package io.switchboard.app.ios;

import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.IosSlbOptions;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.l4.tcp.TcpOptions;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Writes a translated configuration as the YAML document the loader reads, every key that an IOS
 * line set followed by a comment citing that line ({@code # line 12: weight 3}). Keys the
 * translation set from IOS defaults are written too, so the document says everything the Catalyst
 * did. It writes what the translation produces (farms, probes, virtual servers and their service
 * options, firewall farms), nothing else.
 */
public final class IosYamlWriter {

    private final Map<String, IosTranslation.Source> sources;

    private IosYamlWriter(Map<String, IosTranslation.Source> sources) {
        this.sources = sources;
    }

    /** The YAML of a translation, with {@code header} as the opening comment. */
    public static String write(IosTranslation translation, String header) {
        return new IosYamlWriter(translation.sources()).document(translation, header);
    }

    private String document(IosTranslation t, String header) {
        YamlOut.Mapping root = new YamlOut.Mapping();
        if (!t.config().probes().isEmpty()) {
            YamlOut.Mapping probes = root.child("probes", null);
            t.config().probes().forEach((name, p) -> probe(probes.child(name, cite("probes." + name)), p,
                    "probes." + name));
        }
        YamlOut.Mapping farms = root.child("farms", null);
        t.config().farms().forEach((name, f) -> farm(farms.child(name, cite("farms." + name)), f, "farms." + name));
        YamlOut.Mapping servers = root.child("virtual-servers", null);
        t.config().virtualServers().forEach((name, vs) -> {
            YamlOut.Mapping m = servers.child(name, cite("virtual-servers." + name));
            server(m, vs, "virtual-servers." + name);
            t.config().routeHealth().advertise(name).ifPresent(when -> put(m, "virtual-servers." + name, "advertise",
                    YamlOut.string(when.configName())));
        });
        t.config().routeHealth().hook().ifPresent(hook -> root.child("route-health", null).put("hook",
                YamlOut.string(hook.toString()), "given with --route-health-hook (IOS's advertise lines)"));
        if (!t.config().dispatched().firewallFarms().isEmpty()) {
            YamlOut.Mapping firewalls = root.child("firewall-farms", null);
            t.config().dispatched().firewallFarms().forEach((name, f) -> firewallFarm(firewalls.child(name,
                    cite("firewall-farms." + name)), f, "firewall-farms." + name));
        }
        dfp(root, t.config().dfp());
        staticNat(root, t.config().staticNat());
        return YamlOut.render(header, root);
    }

    /** {@code static-nat:} as {@link IosStaticNat} translates it: one entry per {@code ip slb static}. */
    private void staticNat(YamlOut.Mapping root, io.switchboard.director.config.StaticNatConfig n) {
        if (n.isEmpty()) {
            return;
        }
        YamlOut.Mapping m = root.child("static-nat", null);
        List<YamlOut.Node> entries = new java.util.ArrayList<>();
        for (int i = 0; i < n.entries().size(); i++) {
            io.switchboard.director.config.StaticNatConfig.Entry e = n.entries().get(i);
            String path = "static-nat.entries[" + i + "]";
            YamlOut.Mapping item = new YamlOut.Mapping();
            put(item, path, "action", YamlOut.string(e.action().configName()));
            if (e.action() == io.switchboard.director.config.StaticNatConfig.Action.NAT) {
                put(item, path, "address", YamlOut.string(e.address().map(a -> a.getHostAddress()).orElse("virtual")));
            }
            List<YamlOut.Node> reals = new java.util.ArrayList<>();
            for (int j = 0; j < e.reals().size(); j++) {
                io.switchboard.director.config.StaticNatConfig.Real r = e.reals().get(j);
                String realPath = path + ".reals[" + j + "]";
                YamlOut.Mapping real = new YamlOut.Mapping();
                put(real, realPath, "address", YamlOut.string(r.address().getHostAddress()));
                if (r.port() != 0) {
                    put(real, realPath, "port", YamlOut.number(r.port()));
                }
                reals.add(real);
            }
            item.put("reals", new YamlOut.Sequence(reals));
            entries.add(item);
        }
        m.put("entries", new YamlOut.Sequence(entries));
    }

    /** {@code dfp:} as {@link IosDfp} translates it: agents, password, bind IDs. */
    private void dfp(YamlOut.Mapping root, io.switchboard.director.config.DfpConfig d) {
        if (d.agents().isEmpty() && d.password().isEmpty() && d.bindIds().isEmpty()) {
            return;
        }
        YamlOut.Mapping m = root.child("dfp", cite("dfp"));
        d.password().ifPresent(p -> put(m, "dfp", "password", YamlOut.string(p)));
        if (!d.agents().isEmpty()) {
            List<YamlOut.Node> agents = new java.util.ArrayList<>();
            for (int i = 0; i < d.agents().size(); i++) {
                io.switchboard.director.config.DfpConfig.Agent a = d.agents().get(i);
                String path = "dfp.agents[" + i + "]";
                YamlOut.Mapping item = new YamlOut.Mapping();
                put(item, path, "address", YamlOut.string(a.address().getHostAddress()));
                put(item, path, "port", YamlOut.number(a.port()));
                put(item, path, "timeout", YamlOut.duration(a.timeout()));
                put(item, path, "retry-count", YamlOut.number(a.retryCount()));
                put(item, path, "retry-interval", YamlOut.duration(a.retryInterval()));
                agents.add(item);
            }
            m.put("agents", new YamlOut.Sequence(agents));
        }
        if (!d.bindIds().isEmpty()) {
            YamlOut.Mapping ids = m.child("bind-ids", null);
            d.bindIds().forEach((farm, id) -> put(ids, "dfp.bind-ids", farm, YamlOut.number(id)));
        }
    }

    /** {@code line 12: weight 3} for a key an IOS line set, else null (no comment). */
    private String cite(String path) {
        IosTranslation.Source s = sources.get(path);
        return s == null ? null : "line " + s.line() + ": " + s.text();
    }

    private void put(YamlOut.Mapping m, String path, String key, YamlOut.Node value) {
        m.put(key, value, cite(path + "." + key));
    }

    private void probe(YamlOut.Mapping m, ProbeConfig p, String path) {
        put(m, path, "type", YamlOut.string(p.check().type()));
        put(m, path, "interval", YamlOut.duration(p.interval()));
        put(m, path, "timeout", YamlOut.duration(p.timeout()));
        put(m, path, "failures", YamlOut.number(p.failures()));
        p.port().ifPresent(port -> put(m, path, "port", YamlOut.number(port)));
        if (p.check() instanceof ProbeCheck.Http h) {
            put(m, path, "path", YamlOut.string(h.path()));
            put(m, path, "expect-status", YamlOut.number(h.expectStatus()));
            h.host().ifPresent(host -> put(m, path, "host", YamlOut.string(host)));
        } else if (p.check() instanceof ProbeCheck.Udp u) {
            put(m, path, "send", YamlOut.string("hex:" + HexFormat.of().formatHex(u.send())));
            put(m, path, "expect", YamlOut.string("hex:" + HexFormat.of().formatHex(u.expect())));
        } else if (!(p.check() instanceof ProbeCheck.Ping) && !(p.check() instanceof ProbeCheck.TcpConnect)) {
            throw new IllegalArgumentException("the IOS translation makes no " + p.check().type() + " probe");
        }
    }

    private void firewallFarm(YamlOut.Mapping m, DispatchedConfig.FirewallFarm f, String path) {
        m.put("farm", YamlOut.string(f.farm()));
        m.put("outside", YamlOut.string(f.outside()), "the links are from the firewall links, not IOS");
        m.put("inside", YamlOut.string(f.inside()));
        put(m, path, "hash-ports", YamlOut.bool(f.hashPorts()));
        put(m, path, "sticky", YamlOut.duration(f.sticky()));
        List<YamlOut.Node> firewalls = new java.util.ArrayList<>();
        for (int i = 0; i < f.firewalls().size(); i++) {
            DispatchedConfig.Firewall fw = f.firewalls().get(i);
            firewalls.add(new YamlOut.Mapping()
                    .put("address", YamlOut.string(fw.address().getHostAddress()), cite(path + ".firewalls[" + i + "]"))
                    .put("outside", link(fw.outside())).put("inside", link(fw.inside())));
        }
        m.put("firewalls", new YamlOut.Sequence(firewalls));
        f.framedIpGroup().ifPresent(g -> m.put("framed-ip-group", YamlOut.string(g)));
    }

    private static YamlOut.Mapping link(DispatchedConfig.Link link) {
        return new YamlOut.Mapping().put("interface", YamlOut.string(link.interfaceName()))
                .put("mac", YamlOut.string(link.mac()));
    }

    private void farm(YamlOut.Mapping m, FarmConfig f, String path) {
        put(m, path, "predictor", YamlOut.string(f.predictor().configName()));
        YamlOut.Mapping failure = m.child("failure", null);
        put(failure, path + ".failure", "numconns", YamlOut.number(f.failure().numconns()));
        put(failure, path + ".failure", "numclients", YamlOut.number(f.failure().numclients()));
        put(failure, path + ".failure", "retry", YamlOut.duration(f.failure().retry()));
        if (!f.failure().inband()) {
            put(failure, path + ".failure", "inband", YamlOut.bool(false));
        }
        if (f.failure().purge()) {
            put(failure, path + ".failure", "purge", YamlOut.bool(true));
        }
        List<YamlOut.Node> reals = new java.util.ArrayList<>();
        for (int i = 0; i < f.reals().size(); i++) {
            reals.add(real(f.reals().get(i), path + ".reals[" + i + "]"));
        }
        m.put("reals", new YamlOut.Sequence(reals));
        f.backup().ifPresent(b -> put(m, path, "backup", YamlOut.string(b)));
        if (!f.probes().isEmpty()) {
            m.put("probes", new YamlOut.Sequence(f.probes().stream().map(p -> (YamlOut.Node) YamlOut.string(p))
                    .toList()), cite(path + ".probes[0]"));
        }
        if (f.predictor() == PredictorKind.ROUTE_MAP || f.slowStart().isPresent()) {
            throw new IllegalArgumentException("the IOS translation makes no route-map or slow-start farm");
        }
    }

    private YamlOut.Mapping real(RealConfig r, String path) {
        YamlOut.Mapping m = new YamlOut.Mapping();
        put(m, path, "address", YamlOut.string(r.address().getHostAddress()));
        put(m, path, "port", YamlOut.number(r.port()));
        put(m, path, "weight", YamlOut.number(r.weight()));
        r.maxconns().ifPresent(n -> put(m, path, "maxconns", YamlOut.number(n)));
        r.limits().rate().ifPresent(n -> put(m, path, "rate", YamlOut.number(n)));
        r.limits().maxclients().ifPresent(n -> put(m, path, "maxclients", YamlOut.number(n)));
        put(m, path, "inservice", YamlOut.bool(r.inService()));
        r.values().forEach((key, value) -> put(m, path, key.name(), YamlOut.string(key.print(value))));
        return m;
    }

    private void server(YamlOut.Mapping m, VirtualServerConfig vs, String path) {
        put(m, path, "listen", YamlOut.string(vs.listen().toString()));
        put(m, path, "service", YamlOut.string(vs.service()));
        put(m, path, "farm", YamlOut.string(vs.farm()));
        if (!vs.clientFarms().isEmpty()) {
            List<YamlOut.Node> entries = new java.util.ArrayList<>();
            for (int i = 0; i < vs.clientFarms().size(); i++) {
                io.switchboard.director.config.ClientFarm entry = vs.clientFarms().get(i);
                YamlOut.Mapping e = new YamlOut.Mapping();
                e.put("clients", new YamlOut.Sequence(entry.clients().stream()
                        .map(c -> (YamlOut.Node) YamlOut.string(c.toString())).toList()));
                put(e, path + ".client-farms[" + i + "]", "farm", YamlOut.string(entry.farm()));
                entries.add(e);
            }
            m.put("client-farms", new YamlOut.Sequence(entries), cite(path + ".client-farms[0]"));
        }
        vs.sticky().ifPresent(s -> sticky(m.child("sticky", null), s, path + ".sticky"));
        if (!vs.idle().equals(VirtualServerConfig.DEFAULT_IDLE)) {
            put(m, path, "idle", YamlOut.duration(vs.idle()));
        }
        if (!vs.responseTimeout().equals(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT)) {
            put(m, path, "response-timeout", YamlOut.duration(vs.responseTimeout()));
        }
        if (vs.maxDatagram() != VirtualServerConfig.DEFAULT_MAX_DATAGRAM) {
            put(m, path, "max-datagram", YamlOut.number(vs.maxDatagram()));
        }
        if (!vs.clientNat()) {
            put(m, path, "client-nat", YamlOut.bool(false));
        }
        if (!vs.access().isEmpty()) {
            put(m, path, "access", new YamlOut.Sequence(vs.access().stream()
                    .map(name -> (YamlOut.Node) YamlOut.string(name)).toList()));
        }
        put(m, path, "inservice", YamlOut.bool(vs.inService()));
        options(m, vs.service(), vs.options(), path);
    }

    private void sticky(YamlOut.Mapping m, StickyConfig s, String path) {
        m.put("keys", new YamlOut.Sequence(s.keys().stream().map(StickyKind::configName)
                .map(k -> (YamlOut.Node) YamlOut.string(k)).toList()), cite(path + ".keys"));
        put(m, path, "idle", YamlOut.duration(s.idle()));
        s.netmaskBits().ifPresent(bits -> put(m, path, "netmask", YamlOut.string(IosValues.mask(bits))));
        s.group().ifPresent(g -> put(m, path, "group", YamlOut.string(g)));
        if (s.maxEntries() != StickyConfig.DEFAULT_MAX_ENTRIES) {
            put(m, path, "max-entries", YamlOut.number(s.maxEntries()));
        }
    }

    private void options(YamlOut.Mapping m, String service, ServiceOptions options, String path) {
        if (options instanceof TcpOptions t) {
            tcp(m, t, path);
        } else {
            IosServiceOptions.of(service).ifPresent(plugin -> plugin.writeYaml(options, forPlugin(m), path));
        }
        // NONE, and the Home Agent and ASN options at their defaults: nothing to write.
    }

    private void tcp(YamlOut.Mapping m, TcpOptions t, String path) {
        if (!t.clients().isEmpty()) {
            m.put("clients", new YamlOut.Sequence(t.clients().stream().map(s -> (YamlOut.Node) YamlOut.string(
                    s.toString())).toList()), cite(path + ".clients[0]"));
        }
        YamlOut.Mapping tcp = m.child("tcp", null);
        String p = path + ".tcp";
        put(tcp, p, "connect-timeout", YamlOut.duration(t.connectTimeout()));
        put(tcp, p, "reassign", YamlOut.number(t.reassign()));
        if (t.synLimit().isPresent()) {
            YamlOut.Mapping guard = tcp.child("syn-guard", null);
            put(guard, p + ".syn-guard", "limit", YamlOut.number(t.synLimit().getAsInt()));
            put(guard, p + ".syn-guard", "interval", YamlOut.duration(t.synInterval()));
        }
        put(tcp, p, "idle", YamlOut.duration(t.idle()));
        put(tcp, p, "delay", YamlOut.duration(t.delay()));
    }

    /** A mapping of the document for a plug-in's {@link IosSlbOptions#writeYaml}. */
    private IosSlbOptions.Yaml forPlugin(YamlOut.Mapping m) {
        return new IosSlbOptions.Yaml() {
            @Override
            public String cite(String path) {
                return IosYamlWriter.this.cite(path);
            }

            @Override
            public IosSlbOptions.Yaml text(String key, String value, String comment) {
                m.put(key, YamlOut.string(value), comment);
                return this;
            }

            @Override
            public IosSlbOptions.Yaml number(String key, long value, String comment) {
                m.put(key, YamlOut.number(value), comment);
                return this;
            }

            @Override
            public IosSlbOptions.Yaml bool(String key, boolean value, String comment) {
                m.put(key, YamlOut.bool(value), comment);
                return this;
            }

            @Override
            public IosSlbOptions.Yaml numbers(String key, List<? extends Number> values, String comment) {
                m.put(key, new YamlOut.Sequence(values.stream().map(v -> (YamlOut.Node) YamlOut.number(v.longValue()))
                        .toList()), comment);
                return this;
            }

            @Override
            public IosSlbOptions.Yaml mapping(String key, String comment) {
                return forPlugin(m.child(key, comment));
            }

            @Override
            public List<IosSlbOptions.Yaml> mappings(String key, int count, String comment) {
                List<YamlOut.Mapping> items = java.util.stream.Stream.generate(YamlOut.Mapping::new).limit(count)
                        .toList();
                m.put(key, new YamlOut.Sequence(List.copyOf(items)), comment);
                return items.stream().map(item -> forPlugin(item)).toList();
            }
        };
    }
}
