package io.switchboard.app.ios;

import io.switchboard.director.asn.AsnOptions;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.spi.IosSlbOptions;
import io.switchboard.director.spi.IosSlbServer;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.ha.HaOptions;
import io.switchboard.l4.tcp.TcpOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** A GTP map: its {@code apn} lines. */
    record GtpMap(IosCommand command, List<IosCommand> apns) {
    }

    private final IosLedger ledger;
    private final IosFarmBuilder farms;
    private final Map<String, GtpMap> maps;
    /** The RADIUS clients' shared secret {@code --radius-secret} gives, if it does. */
    private final Optional<String> sharedSecret;
    private final java.util.Set<String> usedMaps = new java.util.HashSet<>();

    IosServerBuilder(IosLedger ledger, IosFarmBuilder farms, Map<String, GtpMap> maps, Optional<String> sharedSecret) {
        this.ledger = ledger;
        this.farms = farms;
        this.maps = maps;
        this.sharedSecret = sharedSecret;
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
        if (vs.requestIdleLine != null) {
            ledger.translated(vs.requestIdleLine, vs.path("response-timeout"));
        }
        IosCommand noClientNat = farms.noClientNat(vs.farm.get());
        boolean clientNat = noClientNat == null || "tcp".equals(vs.service);
        if (!clientNat) {
            farms.cite(noClientNat, vs.path("client-nat"));
        }
        for (IosCommand line : vs.accessLines) {
            ledger.translated(line, vs.path("access"));
        }
        return new VirtualServerConfig(vs.name, new Endpoint(vs.address, vs.port), vs.service, farm, sticky(vs),
                vs.requestIdle.orElse(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT), idle,
                VirtualServerConfig.DEFAULT_MAX_DATAGRAM,
                vs.inService, options(vs), io.switchboard.director.config.OverloadConfig.NONE, List.of(), clientNat,
                vs.access);
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
            case "ipmobile" -> HaOptions.DEFAULT;
            case "asn" -> AsnOptions.DEFAULT;
            default -> IosServiceOptions.of(vs.service).map(options -> options.fromIos(server(vs)))
                    .orElse(ServiceOptions.NONE);
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

    /** Whether {@code map} was used by a virtual server (its lines are reported by the translator). */
    boolean used(String map) {
        return usedMaps.contains(map);
    }

    /** What the service's plug-in makes its options of, each line reporting to the ledger. */
    private IosSlbServer server(IosVirtualServer vs) {
        List<IosSlbServer.Client> clients = new ArrayList<>();
        for (int i = 0; i < vs.clients.size(); i++) {
            clients.add(new IosSlbServer.Client(vs.clients.get(i), line(vs.clientLines.get(i))));
        }
        List<IosSlbServer.MapUse> uses = new ArrayList<>();
        for (IosVirtualServer.MapUse use : vs.maps) {
            Optional<List<String>> apns = Optional.ofNullable(maps.get(use.map()))
                    .map(map -> map.apns().stream().map(apn -> apn.arg(0)).toList());
            IosSlbOptions.Line line = line(use.line(), () -> usedMaps.add(use.map()));
            String farm = farms.instance(use.farm(), vs.port);
            uses.add(new IosSlbServer.MapUse(use.map(), farm, use.priority(), apns, line));
        }
        List<IosSlbServer.Purge> purges = vs.purgeLines.stream().map(purge -> new IosSlbServer.Purge(
                purge.isKeyword(3, "stop"), !purge.negated(), line(purge))).toList();
        Optional<IosSlbServer.Cac> cac = vs.cacReassign.isPresent()
                ? Optional.of(new IosSlbServer.Cac(vs.cacReassign.getAsInt(), line(vs.cacLine))) : Optional.empty();
        Optional<IosSlbServer.LocalAck> localAck = vs.localAckLine == null ? Optional.empty()
                : Optional.of(new IosSlbServer.LocalAck(vs.localAckKey.orElseThrow(), line(vs.localAckLine)));
        return new IosSlbServer(vs.name, vs.service, vs.port, line(vs.virtual), clients, cac, uses, purges,
                sharedSecret.or(() -> vs.localAckKey), localAck);
    }

    private IosSlbOptions.Line line(IosCommand c) {
        return line(c, () -> { });
    }

    /** {@code c} for a plug-in, {@code onTranslated} run when it reports the line translated. */
    private IosSlbOptions.Line line(IosCommand c, Runnable onTranslated) {
        return new IosSlbOptions.Line() {
            @Override
            public void translated(List<String> paths) {
                ledger.translated(c, paths);
                onTranslated.run();
            }

            @Override
            public RuntimeException error(int argument, String message) {
                return c.error(argument, message);
            }
        };
    }
}
