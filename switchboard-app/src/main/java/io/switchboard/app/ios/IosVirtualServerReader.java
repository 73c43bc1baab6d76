package io.switchboard.app.ios;

import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.Subnet;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the lines of one {@code ip slb vserver} mode into an {@link IosVirtualServer}, reporting each
 * one: the {@code virtual} line (address, transport, port and service), {@code serverfarm} with its
 * backup and APN maps, {@code sticky} and {@code idle} in their protocol variants, the TCP timers,
 * client lists, and what Switchboard does anyway or lacks.
 */
final class IosVirtualServerReader {

    private final IosLedger ledger;

    IosVirtualServerReader(IosLedger ledger) {
        this.ledger = ledger;
    }

    /** The virtual server, or empty when its {@code virtual} line names what Switchboard cannot serve. */
    Optional<IosVirtualServer> read(IosCommand vserver) {
        IosVirtualServer vs = new IosVirtualServer(IosValues.name(vserver, 0, "the virtual server name"), vserver);
        IosCommand virtual = vserver.children().stream().filter(c -> c.keyword().equals("virtual") && !c.negated())
                .findFirst().orElseThrow(() -> vserver.error(1, "virtual server " + vs.name
                        + " has no 'virtual ADDRESS {tcp|udp} PORT' line"));
        Optional<String> unservable = virtual(vs, virtual);
        if (unservable.isPresent()) {
            IosTranslator.unsupportedWithChildren(ledger, vserver, unservable.get());
            return Optional.empty();
        }
        ledger.translated(vserver, "virtual-servers." + vs.name);
        for (IosCommand c : vserver.children()) {
            if (c != virtual) {
                line(vs, c);
            }
        }
        if (vs.farm.isEmpty()) {
            throw vserver.error(0, "virtual server " + vs.name + " has no 'serverfarm FARM' line");
        }
        return Optional.of(vs);
    }

    /**
     * An all-port virtual server (port 0: every port; IOS leaves the GTP ports out). Switchboard serves
     * it in dispatched mode, a vpn-farms entry with these protocols, which needs the interface and
     * the reals' interfaces and MAC addresses; IOS holds none of them (it learns MACs by ARP), so the
     * entry is written by hand.
     */
    static final String ALL_PORT = "an all-port virtual server: Switchboard dispatches it as vpn-farms.NAME with"
            + " protocols: [%s], written by hand with the capture interface and the reals' interfaces and MAC"
            + " addresses (docs/configuration.md, all-port virtual servers)";

    /** Address, port, service; a reason when Switchboard cannot serve the combination. */
    private Optional<String> virtual(IosVirtualServer vs, IosCommand c) {
        vs.virtual = c;
        vs.address = IosValues.ipv4(c, 0);
        int i = 1;
        if (IosValues.isDotted(c, 1)) {
            if (IosValues.maskBits(c, 1) != 32) {
                return Optional.of("a virtual server on a subnet (transparent web-cache balancing)");
            }
            i = 2;
        }
        boolean tcp = c.isKeyword(i, "tcp");
        if (c.isKeyword(i, "esp") || c.isKeyword(i, "gre")) {
            return Optional.of("ESP/GRE virtual servers here: Switchboard balances them in dispatched mode"
                    + " (vpn-farms), which needs interfaces and MAC addresses IOS does not hold");
        }
        if (c.isKeyword(i, "any") && (!c.hasArg(i + 1) || "0".equals(c.arg(i + 1)))) {
            return Optional.of(ALL_PORT.formatted("any"));
        }
        if (!tcp && !c.isKeyword(i, "udp")) {
            throw c.error(i, "expected tcp, udp, any, esp or gre");
        }
        // "any" as the port is port 0, every port (IOS SLB command reference, virtual).
        int port = c.isKeyword(i + 1, "any") ? 0 : IosValues.port(c, i + 1);
        String service = "";
        if (c.hasArg(i + 2)) {
            if (!c.isKeyword(i + 2, "service")) {
                throw c.error(i + 2, "expected 'service' or the end of the line");
            }
            service = IosValues.name(c, i + 3, "the service").toLowerCase(java.util.Locale.ROOT);
        }
        vs.service = switch (service) {
            case "" -> tcp ? "tcp" : "udp";
            case "gtp" -> "gtp";
            case "gtp-inspect" -> "gtp-inspect";
            case "radius" -> "radius";
            case "ipmobile" -> "ipmobile";
            case "asn" -> "asn";
            default -> null;
        };
        if (vs.service == null) {
            return Optional.of("service " + service + " (Switchboard serves gtp, gtp-inspect, radius, ipmobile,"
                    + " asn and plain tcp/udp)");
        }
        if (tcp != ("tcp".equals(vs.service))) {
            return Optional.of("service " + service + " over " + (tcp ? "tcp" : "udp"));
        }
        vs.port = switch (vs.service) {
            case "gtp", "gtp-inspect" -> port == 0 ? IosVirtualServer.GTP_PORT : port;
            case "asn" -> port == 0 ? IosVirtualServer.ASN_PORT : port;
            case "ipmobile" -> port == 0 ? 434 : port;
            default -> port;
        };
        if (vs.port == 0) {
            return Optional.of(ALL_PORT.formatted(tcp ? "tcp" : "udp"));
        }
        return Optional.empty();
    }

    private void line(IosVirtualServer vs, IosCommand c) {
        switch (c.keyword()) {
            case "virtual" -> throw c.error(0, "a second virtual line in virtual server " + vs.name);
            case "serverfarm" -> serverfarm(vs, c);
            case "sticky" -> sticky(vs, c);
            case "idle" -> idle(vs, c);
            case "delay" -> tcpOnly(vs, c, () -> {
                vs.delay = Optional.of(seconds(c, 0));
                vs.delayLine = ledger.replacing(vs.delayLine, c);
            }, "tcp.delay", "datagram services keep no connection context after a close");
            case "synguard" -> tcpOnly(vs, c, () -> {
                vs.synLimit = OptionalInt.of(IosValues.integer(c, 0, 1, Integer.MAX_VALUE));
                if (c.hasArg(1)) {
                    vs.synInterval = Optional.of(Duration.ofMillis(IosValues.integer(c, 1, 50, 5000)));
                }
                vs.synLine = ledger.replacing(vs.synLine, c);
            }, "tcp.syn-guard", null);
            case "client" -> client(vs, c);
            case "inservice" -> inservice(vs, c);
            case "advertise" -> advertise(vs, c);
            case "access" -> access(vs, c);
            case "replicate" -> ledger.implied(c, "the cluster replicates sticky tables to every node (cluster:)");
            case "gtp" -> gtp(vs, c);
            case "purge" -> purge(vs, c);
            case "radius" -> radius(vs, c);
            case "hand-off" -> ledger.unsupported(c, "the CDMA hand-off window (hand-off radius)");
            case "gw" -> ledger.unsupported(c, "a separate ASN gateway port (gw port)");
            case "slb-policy" -> ledger.unsupported(c, "SLB policies");
            default -> ledger.ignored(c, "a description");
        }
    }

    /**
     * {@code serverfarm PRIMARY [backup BACKUP [sticky]]}, or {@code serverfarm FARM map ID priority N}:
     * creates matching GTP map ID go to FARM (one such line per map).
     */
    private void serverfarm(IosVirtualServer vs, IosCommand c) {
        String farm = IosValues.name(c, 0, "the server farm name");
        if (c.isKeyword(1, "map")) {
            String id = IosValues.name(c, 2, "the map id");
            if (!c.isKeyword(3, "priority")) {
                throw c.error(3, "expected priority N after the map id");
            }
            vs.maps.add(new IosVirtualServer.MapUse(id, farm, IosValues.integer(c, 4, 1, 1000), c));
            if (c.hasArg(5)) {
                throw c.error(5, "unexpected '" + c.arg(5) + "'");
            }
            return;
        }
        if (vs.farm.isPresent()) {
            throw c.error(0, "virtual server " + vs.name + " already uses server farm " + vs.farm.get());
        }
        vs.farm = Optional.of(farm);
        vs.farmLine = c;
        if (c.isKeyword(1, "backup")) {
            vs.backup = Optional.of(IosValues.name(c, 2, "the backup farm name"));
            int end = c.isKeyword(3, "sticky") ? 4 : 3;
            if (c.hasArg(end)) {
                throw c.error(end, "unexpected '" + c.arg(end) + "'");
            }
        } else if (c.hasArg(1)) {
            throw c.error(1, "expected backup FARM or map ID priority N");
        }
    }

    private void sticky(IosVirtualServer vs, IosCommand c) {
        if (c.negated()) {
            ledger.implied(c, "no stickiness is the default");
            return;
        }
        int i;
        StickyKind kind;
        Optional<Duration> duration = Optional.empty();
        if (c.isKeyword(0, "gtp") && c.isKeyword(1, "imsi")) {
            kind = StickyKind.named("imsi");
            i = 2;
        } else if (c.isKeyword(0, "asn") && c.isKeyword(1, "msid")) {
            kind = StickyKind.named("msid");
            i = 2;
        } else if (c.isKeyword(0, "radius")) {
            kind = c.isKeyword(1, "framed-ip") ? StickyKind.named("framed-ip")
                    : c.isKeyword(1, "calling-station-id", "cisco") ? StickyKind.named("calling-station-id")
                    : c.isKeyword(1, "username") ? StickyKind.named("username") : null;
            if (kind == null) {
                throw c.error(1, "expected framed-ip, calling-station-id or username");
            }
            i = 2;
            if (c.isKeyword(i, "msid-cisco")) {
                ledger.unsupported(c, "the Cisco MSID form of the RADIUS username");
                return;
            }
        } else {
            kind = StickyKind.CLIENT_ADDRESS;
            duration = Optional.of(seconds(c, 0));
            i = 1;
        }
        for (; i < c.argCount(); i += 2) {
            if (c.isKeyword(i, "group")) {
                vs.group = Optional.of(IosValues.name(c, i + 1, "the sticky group id"));
                vs.groupLines.add(c);
            } else if (c.isKeyword(i, "netmask") && StickyKind.CLIENT_ADDRESS.equals(kind)) {
                vs.netmaskBits = OptionalInt.of(IosValues.maskBits(c, i + 1));
                vs.netmaskLines.add(c);
            } else {
                throw c.error(i, "expected group ID" + (StickyKind.CLIENT_ADDRESS.equals(kind) ? " or netmask MASK" : ""));
            }
        }
        java.util.List<StickyKind> allowed = Plugins.installed().service(vs.service)
                .map(s -> s.spec().stickyKinds()).orElse(java.util.List.of());
        if (!allowed.contains(kind)) {
            ledger.unsupported(c, "sticky by " + kind.configName() + " on a " + vs.service
                    + " virtual server (Switchboard allows: " + allowed + ")");
            return;
        }
        if (vs.has(kind)) {
            ledger.implied(c, "repeats an earlier sticky line for " + kind.configName());
            return;
        }
        vs.stickyKeys.add(kind);
        vs.stickyLines.add(c);
        if (duration.isPresent()) {
            vs.stickyIdle = duration;
            vs.stickyIdleLine = c;
        }
    }

    private void idle(IosVirtualServer vs, IosCommand c) {
        if (c.negated()) {
            ledger.implied(c, "the default idle time");
            return;
        }
        if (!c.hasArg(1)) {
            Duration idle = seconds(c, 0);
            if ("udp".equals(vs.service) || "tcp".equals(vs.service)) {
                vs.idle = Optional.of(idle);
                vs.idleLine = ledger.replacing(vs.idleLine, c);
            } else {
                ledger.implied(c, "a request's state ends with its answer, or after response-timeout");
            }
            return;
        }
        // IOS takes abbreviated keywords (isKeyword): the timer's canonical words, null when unknown.
        String protocol = c.isKeyword(0, "gtp", "radius", "asn", "ipmobile") ? "gtp"
                : c.isKeyword(0, "radius", "gtp", "asn", "ipmobile") ? "radius"
                : c.isKeyword(0, "asn", "gtp", "radius", "ipmobile") ? "asn"
                : c.isKeyword(0, "ipmobile", "gtp", "radius", "asn") ? "ipmobile" : null;
        boolean request = protocol != null && c.isKeyword(1, "request", "imsi", "framed-ip", "msid");
        String words = request ? protocol
                : "gtp".equals(protocol) && c.isKeyword(1, "imsi", "request") ? "gtp imsi"
                : "radius".equals(protocol) && c.isKeyword(1, "framed-ip", "request") ? "radius framed-ip"
                : "asn".equals(protocol) && c.isKeyword(1, "msid", "request") ? "asn msid" : null;
        if (words == null) {
            ledger.unsupported(c, "the idle timer '" + c.arg(0) + " " + c.arg(1) + "'");
            return;
        }
        Duration duration = seconds(c, 2);
        if (c.hasArg(3)) {
            throw c.error(3, "unexpected '" + c.arg(3) + "' after the duration");
        }
        String own = request ? IosVirtualServer.requestTimer(vs.service) : IosVirtualServer.stickyTimer(vs.service);
        if (!words.equals(own)) {
            String line = "'idle " + words + (request ? " request" : "") + "'";
            ledger.unsupported(c, "the timer " + line + " on a " + vs.service + " virtual server"
                    + (own == null ? "" : " (its own is 'idle " + own + (request ? " request" : "") + "')"));
            return;
        }
        if (request) {
            // The IOS session entry of a request lives until its answer or this timer; the director's
            // pending request likewise, and an unanswered one counts against the real (IOS-SLB.md A18).
            vs.requestIdle = Optional.of(duration);
            vs.requestIdleLine = ledger.replacing(vs.requestIdleLine, c);
        } else if (vs.stickyIdleLine == null || !vs.stickyIdleLine.keyword().equals("sticky")) {
            vs.stickyIdle = Optional.of(duration);
            vs.stickyIdleLine = ledger.replacing(vs.stickyIdleLine, c);
        } else {
            ledger.implied(c, "the sticky line's duration is the binding's idle time");
        }
    }

    /**
     * {@code advertise}: IOS's default, said again; {@code advertise active}: announced only while a
     * real serves; {@code no advertise}: never; {@code no advertise active}: back to the default.
     * Reported with the route health the translation has ({@link IosRouteHealth}).
     */
    private void advertise(IosVirtualServer vs, IosCommand c) {
        boolean active = c.isKeyword(0, "active");
        if (c.hasArg(active ? 1 : 0)) {
            throw c.error(active ? 1 : 0, active ? "unexpected '" + c.arg(1) + "'" : "expected active or the end of the line");
        }
        vs.advertise = c.negated() && !active ? Optional.empty()
                : Optional.of(active && !c.negated() ? io.switchboard.director.config.Advertise.ACTIVE
                        : io.switchboard.director.config.Advertise.INSERVICE);
        vs.advertiseLine = ledger.replacing(vs.advertiseLine, c);
    }

    private void client(IosVirtualServer vs, IosCommand c) {
        // udp: client-assigned farms when another virtual server on the address has no client lines
        // (IosClientFarms decides, and reports the lines).
        if (!"tcp".equals(vs.service) && !"radius".equals(vs.service) && !"udp".equals(vs.service)) {
            ledger.unsupported(c, "client-assigned load balancing on a " + vs.service
                    + " virtual server");
            return;
        }
        int bits = c.hasArg(1) ? IosValues.maskBits(c, 1) : 32;
        if (c.hasArg(2) && c.isKeyword(2, "exclude")) {
            ledger.unsupported(c, "excluded clients (client ... exclude)");
            return;
        }
        vs.clients.add(new Subnet(IosValues.ipv4(c, 0), bits));
        vs.clientLines.add(c);
    }

    private void inservice(IosVirtualServer vs, IosCommand c) {
        if (!c.negated() && c.hasArg(0)) {
            ledger.unsupported(c, "HSRP standby (inservice standby): every node of a Switchboard cluster serves");
            return;
        }
        vs.inService = !c.negated();
        vs.inServiceLine = ledger.replacing(vs.inServiceLine, c);
    }

    private void gtp(IosVirtualServer vs, IosCommand c) {
        if (c.isKeyword(0, "session")) {
            ledger.implied(c, "GTP sessions are tracked (gtp-inspect) or not (gtp) by the service");
        } else if (c.isKeyword(0, "notification") && c.isKeyword(1, "cac")) {
            vs.cacReassign = OptionalInt.of(c.hasArg(2) ? IosValues.integer(c, 2, 1, 16) : 2);
            vs.cacLine = ledger.replacing(vs.cacLine, c);
        } else {
            ledger.unsupported(c, "the GTP option '" + String.join(" ", c.args().stream().map(IosWord::text)
                    .toList()) + "'");
        }
    }

    /**
     * {@code radius acct local-ack key K}: the service's (RADIUS: {@code radius.accounting-local-ack}),
     * and K the clients' shared secret (when {@code --radius-secret} gives none). {@code radius inject}:
     * unsupported.
     */
    private void radius(IosVirtualServer vs, IosCommand c) {
        if (c.isKeyword(0, "acct") && c.isKeyword(1, "local-ack") && c.isKeyword(2, "key") && c.argCount() == 4) {
            vs.localAckKey = Optional.of(c.arg(3));
            vs.localAckLine = ledger.replacing(vs.localAckLine, c);
        } else if (c.isKeyword(0, "acct")) {
            ledger.unsupported(c, "local accounting acknowledgement (radius acct local-ack)");
        } else {
            ledger.unsupported(c, "RADIUS attribute injection (radius inject): Switchboard's vsa-correlation names"
                    + " a vendor attribute, write radius.vsa-correlation by hand");
        }
    }

    private void purge(IosVirtualServer vs, IosCommand c) {
        if (!(c.isKeyword(0, "radius") && c.isKeyword(1, "framed-ip") && c.isKeyword(2, "acct"))) {
            throw c.error(0, "expected purge radius framed-ip acct {stop|on-off}");
        }
        if (!c.isKeyword(3, "stop") && !c.isKeyword(3, "on-off")) {
            throw c.error(3, "expected stop or on-off");
        }
        vs.purgeLines.add(c);
    }

    /**
     * {@code access INTERFACE [route framed-ip]} (interface awareness): only what arrives on the
     * interface is served, several lines adding interfaces. The name is taken when it can be a Linux
     * interface name ({@code Vlan20}, {@code eth1}; IOS's {@code GigabitEthernet1/1} cannot, and must be
     * given as the director's interface by hand); {@code route framed-ip} (routing subscriber traffic by
     * framed IP through the interface) Switchboard does not have. TCP and datagram virtual servers alike.
     */
    private void access(IosVirtualServer vs, IosCommand c) {
        if (c.negated()) {
            ledger.implied(c, "the default: every interface");
            return;
        }
        String name = IosValues.name(c, 0, "the interface");
        if (c.hasArg(1)) {
            ledger.unsupported(c, "access ... route framed-ip (framed-IP routing through the interface)");
        } else if (!LINUX_INTERFACE.matcher(name).matches()) {
            ledger.unsupported(c, "interface " + name + " is not a Linux interface name: write access: [NAME] with"
                    + " the director's interface by hand");
        } else {
            if (!vs.access.contains(name)) {
                vs.access.add(name);
            }
            vs.accessLines.add(c);
        }
    }

    /** As the configuration's {@code access:} takes them: IFNAMSIZ - 1 octets, no '/', ':' or blanks. */
    private static final java.util.regex.Pattern LINUX_INTERFACE = java.util.regex.Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    /** A line only TCP virtual servers have: translated by the caller, implied (or unsupported) otherwise. */
    private void tcpOnly(IosVirtualServer vs, IosCommand c, Runnable read, String key, String impliedWhy) {
        if (c.negated()) {
            ledger.implied(c, "the default");
        } else if (vs.tcp()) {
            read.run();
        } else if (impliedWhy != null) {
            ledger.implied(c, impliedWhy);
        } else {
            ledger.unsupported(c, key + " on a " + vs.service + " virtual server");
        }
    }

    static Duration seconds(IosCommand c, int i) {
        return Duration.ofSeconds(IosValues.integer(c, i, 1, Integer.MAX_VALUE));
    }
}
