package io.switchboard.app.ios;

import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.PredictorKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ip slb firewallfarm}: its firewalls become a {@code predictor: hash} farm (weights, probes,
 * states), and with the farm's links ({@link IosFirewallLinks}) the dispatched firewall farm itself:
 * {@code predictor hash address port} hashes ports too, and the protocols' {@code sticky} is how long
 * a flow keeps its firewall. Without links the firewall farm is unsupported (IOS learns the
 * firewalls' MAC addresses by ARP; Switchboard must be told them).
 */
final class IosFirewallFarms {

    /** What one firewall farm says beyond its reals. */
    private static final class Draft {
        final IosFarm farm;
        boolean hashPorts;
        Optional<Duration> sticky = Optional.empty();
        IosCommand stickyLine;
        final List<IosCommand> implied = new ArrayList<>();

        Draft(IosFarm farm) {
            this.farm = farm;
        }
    }

    private final IosLedger ledger;
    private final IosFarmReader reals;
    private final Map<String, IosFirewallLinks.Farm> links;
    private final Map<String, Draft> drafts = new LinkedHashMap<>();

    IosFirewallFarms(IosLedger ledger, IosFarmReader reals, Map<String, IosFirewallLinks.Farm> links) {
        this.ledger = ledger;
        this.reals = reals;
        this.links = links;
    }

    IosFarm read(IosCommand command) {
        IosFarm f = new IosFarm(IosValues.name(command, 0, "the firewall farm name"), command);
        f.predictor = PredictorKind.HASH;
        IosFirewallLinks.Farm link = links.get(f.name);
        Draft draft = new Draft(f);
        for (IosCommand c : command.children()) {
            switch (c.keyword()) {
                case "real" -> reals.real(f, c, true);
                case "predictor" -> {
                    f.predictorLine = ledger.replacing(f.predictorLine, c);
                    if (!c.isKeyword(0, "hash") || !c.isKeyword(1, "address")) {
                        throw c.error(0, "a firewall farm's predictor is 'hash address [port]'");
                    }
                    draft.hashPorts = c.isKeyword(2, "port");
                }
                case "protocol" -> protocol(draft, c, link != null);
                case "inservice" -> ledger.implied(c, "a firewall farm serves once configured");
                case "replicate" -> ledger.implied(c, "the cluster replicates sticky tables to every node");
                case "access" -> {
                    if (link == null) {
                        ledger.unsupported(c, "the firewall farm's interfaces: give them in the firewall links"
                                + " (import-ios --firewall-links)");
                    } else {
                        ledger.implied(c, "the director's interfaces come from the firewall links (outside "
                                + link.outside() + ", inside " + link.inside() + ")");
                    }
                }
                default -> ledger.ignored(c, "a description");
            }
        }
        drafts.put(f.name, draft);
        return f;
    }

    private void protocol(Draft draft, IosCommand c, boolean linked) {
        if (!linked) {
            IosTranslator.unsupportedWithChildren(ledger, c, "firewall farm protocol settings without the farm's"
                    + " links (import-ios --firewall-links)");
            return;
        }
        if (!c.isKeyword(0, "tcp") && !c.isKeyword(0, "datagram")) {
            throw c.error(0, "expected protocol tcp or protocol datagram");
        }
        ledger.implied(c, "opens the " + c.arg(0) + " settings of the firewall farm");
        String path = "firewall-farms." + draft.farm.name + ".sticky";
        for (IosCommand p : c.children()) {
            if (!p.keyword().equals("sticky") || p.negated()) {
                ledger.unsupported(p, "the firewall farm's " + p.keyword() + " (Switchboard keeps a flow's firewall"
                        + " for the sticky time after its last packet, nothing else)");
            } else if (draft.sticky.isEmpty()) {
                draft.sticky = Optional.of(IosVirtualServerReader.seconds(p, 0));
                draft.stickyLine = p;
            } else if (draft.sticky.get().equals(IosVirtualServerReader.seconds(p, 0))) {
                ledger.translated(p, path);
            } else {
                ledger.unsupported(p, "a sticky time per protocol: Switchboard's is per firewall farm (" + path
                        + " from line " + draft.stickyLine.line() + ")");
            }
        }
    }

    /** The dispatched firewall farms, for the farms that have links; reports their farm lines' keys. */
    Map<String, DispatchedConfig.FirewallFarm> build(IosFarmBuilder farms) {
        Map<String, DispatchedConfig.FirewallFarm> built = new LinkedHashMap<>();
        drafts.forEach((name, draft) -> {
            IosFirewallLinks.Farm link = links.get(name);
            if (link == null) {
                farms.reportedElsewhere(draft.farm.command);
                ledger.unsupported(draft.farm.command, "the firewall farm itself: Switchboard dispatches to each"
                        + " firewall's MAC address, which IOS learns by ARP; give them with --firewall-links (farms."
                        + name + " holds the firewalls)");
                return;
            }
            String path = "firewall-farms." + name;
            List<DispatchedConfig.Firewall> firewalls = new ArrayList<>();
            for (IosFarm.Real real : draft.farm.reals) {
                DispatchedConfig.Firewall firewall = link.firewalls().get(real.address);
                if (firewall == null) {
                    throw real.command.error(0, "firewall " + real.address.getHostAddress() + " of " + name
                            + " has no line in the firewall links");
                }
                firewalls.add(firewall);
                farms.cite(real.command, path + ".firewalls[" + firewalls.indexOf(firewall) + "]");
            }
            farms.cite(draft.farm.command, path);
            farms.cite(draft.farm.predictorLine, path + ".hash-ports");
            if (draft.stickyLine != null) {
                ledger.translated(draft.stickyLine, path + ".sticky");
            }
            built.put(name, new DispatchedConfig.FirewallFarm(name, name, link.outside(), link.inside(),
                    draft.hashPorts, draft.sticky.orElse(DEFAULT_STICKY), firewalls, Optional.empty()));
        });
        return built;
    }

    /** A flow's firewall is kept this long after its last packet when IOS gives no sticky (the loader's default). */
    static final Duration DEFAULT_STICKY = Duration.ofMinutes(1);
}
