package io.switchboard.app.ios;

import io.switchboard.director.asn.AsnOptions;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.gtp.GtpOptions;
import io.switchboard.director.ha.HaOptions;
import io.switchboard.director.radius.RadiusOptions;
import io.switchboard.l4.tcp.TcpOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds each virtual server of the model from its {@link IosVirtualServer}: listen endpoint,
 * service, farm (as {@link IosFarmBuilder} names it for the port), sticky, timers and the service's
 * options, reporting the lines that set them.
 */
final class IosServerBuilder {

    /** IOS's {@code idle} default, 3600 s (Cisco IOS SLB command reference, "idle (virtual server)"). */
    static final Duration IOS_IDLE = Duration.ofHours(1);
    /** IOS's {@code synguard} interval default, 100 ms (same reference, "synguard"). */
    static final Duration IOS_SYN_INTERVAL = Duration.ofMillis(100);

    /** {@code 0.0.0.0/0}: every client, when the virtual server lists none. */
    private static final java.net.InetAddress ANY;

    static {
        try {
            ANY = java.net.InetAddress.getByAddress(new byte[4]);
        } catch (java.net.UnknownHostException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A GTP map: its {@code apn} lines. */
    record GtpMap(IosCommand command, List<IosCommand> apns) {
    }

    private final IosLedger ledger;
    private final IosFarmBuilder farms;
    private final Map<String, GtpMap> maps;
    private final Optional<String> radiusSecret;
    private final java.util.Set<String> usedMaps = new java.util.HashSet<>();

    IosServerBuilder(IosLedger ledger, IosFarmBuilder farms, Map<String, GtpMap> maps, Optional<String> radiusSecret) {
        this.ledger = ledger;
        this.farms = farms;
        this.maps = maps;
        this.radiusSecret = radiusSecret;
    }

    /** Tells the farm builder which farms are used on which ports: before any {@link #build}. */
    void declare(IosVirtualServer vs) {
        farms.use(vs.farm.get(), vs.port, vs.farmLine, 0);
        vs.backup.ifPresent(b -> {
            farms.use(b, vs.port, vs.farmLine, 2);
            farms.backup(vs.farm.get(), b, vs.farmLine);
        });
        vs.maps.forEach(m -> farms.use(m.farm(), vs.port, m.line(), 0));
    }

    VirtualServerConfig build(IosVirtualServer vs) {
        ledger.translated(vs.virtual, List.of(vs.path("listen"), vs.path("service")));
        String farm = farms.instance(vs.farm.get(), vs.port);
        List<String> farmKeys = new ArrayList<>(List.of(vs.path("farm")));
        vs.backup.ifPresent(b -> farmKeys.add("farms." + farm + ".backup"));
        ledger.translated(vs.farmLine, farmKeys);
        if (vs.inServiceLine != null) {
            ledger.translated(vs.inServiceLine, vs.path("inservice"));
        }
        Duration idle = VirtualServerConfig.DEFAULT_IDLE;
        if ("udp".equals(vs.service)) {
            idle = vs.idle.orElse(IOS_IDLE);
            if (vs.idleLine != null) {
                ledger.translated(vs.idleLine, vs.path("idle"));
            }
        }
        return new VirtualServerConfig(vs.name, new Endpoint(vs.address, vs.port), vs.service, farm, sticky(vs),
                VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT, idle, VirtualServerConfig.DEFAULT_MAX_DATAGRAM,
                vs.inService, options(vs));
    }

    private Optional<StickyConfig> sticky(IosVirtualServer vs) {
        if (vs.stickyKeys.isEmpty()) {
            if (vs.stickyIdleLine != null) {
                ledger.implied(vs.stickyIdleLine, "no sticky line: nothing is kept for the timer to end");
            }
            return Optional.empty();
        }
        for (IosCommand line : vs.stickyLines) {
            List<String> keys = new ArrayList<>(List.of(vs.path("sticky.keys")));
            if (line == vs.stickyIdleLine) {
                keys.add(vs.path("sticky.idle"));
            }
            if (vs.groupLines.contains(line)) {
                keys.add(vs.path("sticky.group"));
            }
            if (vs.netmaskLines.contains(line)) {
                keys.add(vs.path("sticky.netmask"));
            }
            ledger.translated(line, keys);
        }
        if (vs.stickyIdleLine != null && !vs.stickyLines.contains(vs.stickyIdleLine)) {
            ledger.translated(vs.stickyIdleLine, vs.path("sticky.idle"));
        }
        Duration idle = vs.stickyIdle.orElse(IosVirtualServer.PROTOCOL_STICKY_IDLE);
        return Optional.of(new StickyConfig(vs.stickyKeys, idle, vs.netmaskBits, StickyConfig.DEFAULT_MAX_ENTRIES,
                vs.group));
    }

    private ServiceOptions options(IosVirtualServer vs) {
        return switch (vs.service) {
            case "tcp" -> tcp(vs);
            case "gtp", "gtp-inspect" -> gtp(vs);
            case "radius" -> radius(vs);
            case "ipmobile" -> HaOptions.DEFAULT;
            case "asn" -> AsnOptions.DEFAULT;
            default -> ServiceOptions.NONE;
        };
    }

    private TcpOptions tcp(IosVirtualServer vs) {
        List<Subnet> clients = new ArrayList<>(vs.clients);
        for (int i = 0; i < vs.clientLines.size(); i++) {
            ledger.translated(vs.clientLines.get(i), vs.path("clients[" + i + "]"));
        }
        if (vs.idleLine != null) {
            ledger.translated(vs.idleLine, vs.path("tcp.idle"));
        }
        if (vs.delayLine != null) {
            ledger.translated(vs.delayLine, vs.path("tcp.delay"));
        }
        if (vs.synLine != null) {
            ledger.translated(vs.synLine, List.of(vs.path("tcp.syn-guard.limit"), vs.path("tcp.syn-guard.interval")));
        }
        int reassign = farms.reassign(vs.farm.get(), vs.path("tcp.reassign")).orElse(TcpOptions.DEFAULT_REASSIGN);
        return new TcpOptions(clients, TcpOptions.DEFAULT_CONNECT_TIMEOUT, reassign, vs.synLimit,
                vs.synLimit.isPresent() ? vs.synInterval.orElse(IOS_SYN_INTERVAL) : TcpOptions.DEFAULT_SYN_INTERVAL,
                vs.idle.orElse(IOS_IDLE), vs.delay.orElse(TcpOptions.DEFAULT_DELAY));
    }

    private ServiceOptions gtp(IosVirtualServer vs) {
        Set<Integer> versions = vs.port == IosVirtualServer.GTP_V0_PORT ? Set.of(0) : GtpOptions.DEFAULT.versions();
        GtpOptions d = GtpOptions.DEFAULT;
        int reassign = vs.cacReassign.orElse(d.reassign());
        if (vs.cacLine != null) {
            ledger.translated(vs.cacLine, vs.path("gtp.reassign"));
        }
        List<GtpOptions.ApnMap> apnMaps = new ArrayList<>();
        for (IosVirtualServer.MapUse use : vs.maps) {
            GtpMap map = maps.get(use.map());
            if (map == null) {
                throw use.line().error(2, "no ip slb map " + use.map() + " gtp");
            }
            usedMaps.add(use.map());
            List<String> keys = new ArrayList<>();
            for (IosCommand apn : map.apns()) {
                keys.add(vs.path("gtp.apn-maps[" + apnMaps.size() + "]"));
                apnMaps.add(new GtpOptions.ApnMap(apn.arg(0), farms.instance(use.farm(), vs.port), use.priority()));
            }
            ledger.translated(use.line(), keys.isEmpty() ? List.of(vs.path("gtp.apn-maps")) : keys);
        }
        if (versions.equals(d.versions()) && reassign == d.reassign() && apnMaps.isEmpty()) {
            return ServiceOptions.NONE;
        }
        return new GtpOptions(versions, reassign, d.resourceCausesV1(), d.resourceCausesV2(), d.carrierCodes(),
                d.v0TidOrder(), d.recovery(), d.recoveryFile(), d.unstickOnDelete(), d.sessionIdle(),
                d.directorAddresses(), apnMaps);
    }

    /** Whether {@code map} was used by a virtual server (its lines are reported by the translator). */
    boolean used(String map) {
        return usedMaps.contains(map);
    }

    private RadiusOptions radius(IosVirtualServer vs) {
        String secret = radiusSecret.or(() -> vs.localAckKey).orElseThrow(() -> vs.virtual.error(0,
                "virtual server " + vs.name + " (service radius): Switchboard checks each RADIUS client's shared"
                        + " secret, which an IOS SLB configuration does not hold; give it with --radius-secret"));
        List<RadiusOptions.Client> clients = new ArrayList<>();
        for (int i = 0; i < vs.clients.size(); i++) {
            Subnet s = vs.clients.get(i);
            clients.add(new RadiusOptions.Client(s.network(), s.prefixLength(), secret));
            ledger.translated(vs.clientLines.get(i), vs.path("clients[" + i + "]"));
        }
        if (clients.isEmpty()) {
            clients.add(new RadiusOptions.Client(ANY, 0, secret));
        }
        for (IosCommand purge : vs.purgeLines) {
            ledger.translated(purge, vs.path(purge.isKeyword(3, "stop") ? "radius.framed-ip.purge-on-stop"
                    : "radius.framed-ip.purge-on-accounting-on-off"));
        }
        RadiusOptions.FramedIp framedIp = new RadiusOptions.FramedIp(true, vs.purgeOnStop, vs.purgeOnOnOff);
        return new RadiusOptions(clients, framedIp, RadiusOptions.DEFAULT_STATE_IDLE, Optional.empty(),
                RadiusOptions.DEFAULT_UPSTREAM_SOCKETS, true);
    }
}
