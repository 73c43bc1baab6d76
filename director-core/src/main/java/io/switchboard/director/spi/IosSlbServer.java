package io.switchboard.director.spi;

import io.switchboard.director.config.Subnet;
import java.util.List;
import java.util.Optional;

/**
 * What one imported {@code ip slb vserver} said that its service's {@link IosSlbOptions} make
 * options of: its lines already parsed and checked by the import, each with its {@link
 * IosSlbOptions.Line} to report or to blame. Lines no service took stay unreported here; the
 * service reports those it takes.
 *
 * @param name         the virtual server's name
 * @param service      its service's configuration name
 * @param port         its port (the service's well-known port when IOS gave 0)
 * @param virtual      its {@code virtual} line, for errors about the server as a whole
 * @param clients      its {@code client} lines, in order
 * @param cac          its {@code gtp notification cac [N]} line (IOS keeps the last), if any
 * @param mapUses      its {@code serverfarm FARM map ID priority N} lines, in order
 * @param purges       its {@code [no] purge radius framed-ip acct {stop|on-off}} lines, in order
 * @param sharedSecret the clients' shared secret: {@code --radius-secret}'s, else the key of its
 *                     {@code radius acct local-ack key K} line (IOS SLB holds none otherwise)
 * @param localAck     its {@code radius acct local-ack key K} line (IOS keeps the last), if any
 */
public record IosSlbServer(String name, String service, int port, IosSlbOptions.Line virtual, List<Client> clients,
        Optional<Cac> cac, List<MapUse> mapUses, List<Purge> purges, Optional<String> sharedSecret,
        Optional<LocalAck> localAck) {

    public IosSlbServer {
        clients = List.copyOf(clients);
        mapUses = List.copyOf(mapUses);
        purges = List.copyOf(purges);
        localAck = localAck == null ? Optional.empty() : localAck;
    }

    /** Without a {@code radius acct local-ack} line. */
    public IosSlbServer(String name, String service, int port, IosSlbOptions.Line virtual, List<Client> clients,
            Optional<Cac> cac, List<MapUse> mapUses, List<Purge> purges, Optional<String> sharedSecret) {
        this(name, service, port, virtual, clients, cac, mapUses, purges, sharedSecret, Optional.empty());
    }

    /** {@code radius acct local-ack key K}: the director acknowledges accounting itself, signed with K. */
    public record LocalAck(String key, IosSlbOptions.Line line) {
    }

    /** The YAML path of one of the virtual server's keys: {@code virtual-servers.NAME.key}. */
    public String path(String key) {
        return "virtual-servers." + name + "." + key;
    }

    /** A {@code client ADDRESS [MASK]} line. */
    public record Client(Subnet subnet, IosSlbOptions.Line line) {
    }

    /** {@code gtp notification cac N}: reassign a rejected create up to N times (IOS's default 2). */
    public record Cac(int reassign, IosSlbOptions.Line line) {
    }

    /**
     * A {@code serverfarm FARM map ID priority N} line: creates whose APN matches one of map ID's
     * {@code apn} patterns go to {@code farm}, maps tried by ascending priority. The map counts as
     * used (its own lines are reported with it) once this line is reported translated.
     *
     * @param map  the map's id
     * @param farm the farm's name in the translated model (a farm split by port has one per port)
     * @param apns the APN patterns of {@code ip slb map ID gtp}, in order; empty when there is no such map
     */
    public record MapUse(String map, String farm, int priority, Optional<List<String>> apns,
            IosSlbOptions.Line line) {
        public MapUse {
            apns = apns.map(List::copyOf);
        }
    }

    /**
     * A {@code purge radius framed-ip acct stop} ({@code onStop}) or {@code ... on-off} line, or its
     * {@code no} form ({@code enabled} false).
     */
    public record Purge(boolean onStop, boolean enabled, IosSlbOptions.Line line) {
    }
}
