package io.switchboard.app.ios;

import io.switchboard.director.config.ClientFarm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Client-assigned load balancing as IOS writes it (IOS SLB configuration guide, "Client-Assigned
 * Load Balancing"; command reference, "client (virtual server)"): several {@code ip slb vserver}s on
 * one virtual address, port and protocol, those with {@code client} lines serving only those
 * clients, each with its own {@code serverfarm}. Switchboard makes them one virtual server: the one
 * without client lines, whose farm serves every other client, with a {@code client-farms} entry
 * for each of the others. Its settings (sticky, timers, inservice) hold for all of them; a
 * member's own settings beyond its farm and clients are reported unsupported.
 */
final class IosClientFarms {

    /** A virtual server that became an entry of another's client-farms. */
    record Member(IosVirtualServer server, int index) {
    }

    private final IosLedger ledger;
    /** By the virtual server that serves the unlisted clients, its members in order. */
    private final Map<IosVirtualServer, List<IosVirtualServer>> groups = new LinkedHashMap<>();

    IosClientFarms(IosLedger ledger) {
        this.ledger = ledger;
    }

    /**
     * The drafts that stay virtual servers of their own; the others are members of a group. A
     * group needs exactly one server without client lines (IOS refuses a client no list names;
     * Switchboard's virtual server serves every client), and a tcp or udp service (the client lines
     * of a RADIUS virtual server are its NAS list).
     */
    List<IosVirtualServer> group(List<IosVirtualServer> drafts) {
        Map<String, List<IosVirtualServer>> byListen = new LinkedHashMap<>();
        for (IosVirtualServer vs : drafts) {
            byListen.computeIfAbsent(vs.address.getHostAddress() + ":" + vs.port + "/" + vs.service,
                    k -> new ArrayList<>()).add(vs);
        }
        List<IosVirtualServer> kept = new ArrayList<>();
        for (List<IosVirtualServer> same : byListen.values()) {
            List<IosVirtualServer> open = same.stream().filter(vs -> vs.clientLines.isEmpty()).toList();
            boolean groupable = same.size() > 1 && open.size() == 1
                    && ("tcp".equals(same.get(0).service) || "udp".equals(same.get(0).service));
            if (!groupable) {
                kept.addAll(same);
                same.stream().filter(vs -> "udp".equals(vs.service)).forEach(this::clientLinesAlone);
                continue;
            }
            IosVirtualServer main = open.get(0);
            kept.add(main);
            groups.put(main, same.stream().filter(vs -> vs != main).toList());
        }
        return kept;
    }

    /** A udp server's client lines outside a group: IOS's access list, which Switchboard lacks for udp. */
    private void clientLinesAlone(IosVirtualServer vs) {
        vs.clientLines.forEach(c -> ledger.unsupported(c, "client lines on a udp virtual server without another"
                + " virtual server on " + vs.address.getHostAddress() + ":" + vs.port
                + " that has none (Switchboard serves client lists of udp only as client-assigned farms)"));
        vs.clients.clear();
        vs.clientLines.clear();
    }

    /** The members of {@code main}'s group, in order (their farms declared like any server's). */
    List<IosVirtualServer> members(IosVirtualServer main) {
        return groups.getOrDefault(main, List.of());
    }

    /** Every member, for the farm builder's declarations. */
    List<IosVirtualServer> allMembers() {
        return groups.values().stream().flatMap(List::stream).toList();
    }

    /**
     * {@code main}'s client-farms, each member's lines reported: {@code vserver}, {@code virtual},
     * {@code serverfarm} and {@code client} translated into the entry; the rest unsupported.
     */
    List<ClientFarm> entries(IosVirtualServer main, IosFarmBuilder farms) {
        List<ClientFarm> entries = new ArrayList<>();
        List<IosVirtualServer> members = members(main);
        for (int i = 0; i < members.size(); i++) {
            IosVirtualServer m = members.get(i);
            String entry = main.path("client-farms[" + i + "]");
            String farm = farms.instance(m.farm.get(), m.port);
            ledger.report.retract(m.command);
            ledger.translated(m.command, entry);
            ledger.translated(m.virtual, entry);
            List<String> farmKeys = new ArrayList<>(List.of(entry + ".farm"));
            m.backup.ifPresent(b -> farmKeys.add("farms." + farm + ".backup"));
            ledger.translated(m.farmLine, farmKeys);
            for (int j = 0; j < m.clientLines.size(); j++) {
                ledger.translated(m.clientLines.get(j), entry + ".clients[" + j + "]");
            }
            for (IosCommand c : m.command.children()) {
                if (ledger.report.entry(c.line()).isEmpty()) {
                    ledger.unsupported(c, "settings of one client-assigned farm: virtual server " + main.name
                            + "'s hold for all its client-farms");
                }
            }
            entries.add(new ClientFarm(m.clients, farm));
        }
        return entries;
    }
}
