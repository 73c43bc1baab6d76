package io.switchboard.app.ios;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import io.switchboard.director.config.VirtualServerConfig;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ip slb static {drop | nat {virtual | ADDR} [per-packet | sticky]}} with its
 * {@code real ADDR [PORT]} lines (IOS SLB configuration guide, "Configuring Static NAT"), as
 * {@code static-nat.entries} (docs/transparent.md). The guide's logic for a packet from a real that
 * matches no connection: drop it ({@code drop}); NAT it without state ({@code per-packet}); build a
 * connection only if a sticky object exists ({@code sticky}); otherwise build a connection. The
 * kernel's NAT is per connection (conntrack), so {@code per-packet} is translated to it (the source
 * is translated and the answers come back alike; conntrack reassembles fragments, which IOS's
 * per-packet NAT did not balance); {@code sticky} has no kernel counterpart and stays unsupported.
 */
final class IosStaticNat {

    private record Block(IosCommand command, Action action, Optional<InetAddress> address, List<IosCommand> reals) {
    }

    private final IosLedger ledger;
    private final List<Block> blocks = new ArrayList<>();
    private final Map<String, IosCommand> seen = new HashMap<>();

    IosStaticNat(IosLedger ledger) {
        this.ledger = ledger;
    }

    /** One {@code ip slb static} mode. */
    void read(IosCommand c) {
        Action action;
        Optional<InetAddress> address = Optional.empty();
        if (c.isKeyword(0, "drop")) {
            action = Action.DROP;
            if (c.hasArg(1)) {
                throw c.error(1, "ip slb static drop takes nothing more");
            }
        } else if (c.isKeyword(0, "nat")) {
            action = Action.NAT;
            if (!c.hasArg(1)) {
                throw c.error(1, "expected virtual or an IPv4 address");
            }
            if (!c.isKeyword(1, "virtual")) {
                address = Optional.of(IosValues.ipv4(c, 1));
            }
            if (c.hasArg(2)) {
                if (c.isKeyword(2, "sticky")) {
                    IosTranslator.unsupportedWithChildren(ledger, c, "static NAT with sticky: a real's own"
                            + " connections only where a client's sticky object names it, which nftables cannot match");
                    return;
                }
                if (!c.isKeyword(2, "per-packet")) {
                    throw c.error(2, "expected per-packet or sticky");
                }
                if (c.hasArg(3)) {
                    throw c.error(3, "nothing follows per-packet");
                }
            }
        } else {
            throw c.error(0, "expected drop or nat");
        }
        List<IosCommand> reals = new ArrayList<>();
        for (IosCommand child : c.children()) {
            if (child.negated()) {
                ledger.implied(child, "removes what is not configured");
                continue;
            }
            if (!child.keyword().equals("real")) {
                throw child.error(0, "a static NAT block takes 'real ADDR [PORT]' lines");
            }
            InetAddress real = IosValues.ipv4(child, 0);
            int port = child.hasArg(1) ? IosValues.integer(child, 1, 1, 65535) : 0;
            String key = real.getHostAddress() + (port == 0 ? "" : ":" + port);
            IosCommand earlier = seen.putIfAbsent(key, child);
            if (earlier != null) {
                throw child.error(0, key + " is in static NAT already (line " + earlier.line() + ")");
            }
            reals.add(child);
        }
        blocks.add(new Block(c, action, address, reals));
    }

    /** The section, {@code virtual} resolved against the virtual servers the translation kept. */
    StaticNatConfig config(Map<String, FarmConfig> farms, Map<String, VirtualServerConfig> servers) {
        List<StaticNatConfig.Entry> entries = new ArrayList<>();
        for (Block b : blocks) {
            String path = "static-nat.entries[" + entries.size() + "]";
            List<StaticNatConfig.Real> reals = new ArrayList<>();
            for (IosCommand line : b.reals()) {
                InetAddress real = IosValues.ipv4(line, 0);
                int port = line.hasArg(1) ? IosValues.integer(line, 1, 1, 65535) : 0;
                Optional<InetAddress> translated = b.address();
                if (b.action() == Action.NAT && translated.isEmpty()) {
                    Map<String, InetAddress> found = StaticNatConfig.virtualAddresses(real, farms, servers);
                    Set<InetAddress> distinct = new LinkedHashSet<>(found.values());
                    if (distinct.size() != 1) {
                        ledger.unsupported(line, distinct.isEmpty()
                                ? "nat virtual for a real that no translated virtual server's farm holds"
                                : "nat virtual for a real whose farms serve several virtual addresses " + found);
                        continue;
                    }
                    translated = Optional.of(distinct.iterator().next());
                } else if (b.action() == Action.DROP) {
                    translated = Optional.empty();
                }
                String realPath = path + ".reals[" + reals.size() + "]";
                ledger.translated(line, port == 0 ? List.of(realPath + ".address")
                        : List.of(realPath + ".address", realPath + ".port"));
                reals.add(new StaticNatConfig.Real(real, port, translated));
            }
            if (reals.isEmpty()) {
                ledger.ignored(b.command(), "no real to translate");
                continue;
            }
            ledger.translated(b.command(), b.action() == Action.NAT
                    ? List.of(path + ".action", path + ".address") : List.of(path + ".action"));
            entries.add(new StaticNatConfig.Entry(b.action(), b.address(), reals));
        }
        return new StaticNatConfig(StaticNatConfig.DEFAULT_TABLE, entries);
    }
}
