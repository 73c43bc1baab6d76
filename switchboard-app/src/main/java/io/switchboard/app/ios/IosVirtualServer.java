package io.switchboard.app.ios;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.Subnet;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one {@code ip slb vserver} says, read line by line (each line reported as it is read); the
 * farm it names is resolved later, when the farms are built with the port the virtual server gives
 * their reals.
 */
final class IosVirtualServer {

    /** The well-known ports of IOS SLB's services on port 0 (IOS-SLB.md §2): GTPv1/v2-C, ASN R6. */
    static final int GTP_PORT = 2123;
    static final int ASN_PORT = 2231;

    /**
     * The idle time of a GTP IMSI, RADIUS or ASN MSID binding when no {@code idle gtp imsi},
     * {@code idle radius framed-ip} or {@code idle asn msid} gives one. The IOS defaults of those
     * timers could not be recovered from public copies of the command reference (IOS-SLB.md §4),
     * so this is Switchboard's choice, and the YAML says so.
     */
    static final Duration PROTOCOL_STICKY_IDLE = Duration.ofHours(1);

    /**
     * The protocol word of the IOS timer {@code idle PROTOCOL request S} that times a forwarded
     * request of {@code service} (Cisco IOS SLB Command Reference, "idle (virtual server)"): the
     * director's {@code response-timeout}, how long a request waits for its answer. Null for a
     * service without one (plain udp, tcp). The one copy of this pairing: import and export read it.
     */
    static String requestTimer(String service) {
        return switch (service) {
            case "gtp", "gtp-inspect" -> "gtp";
            case "radius" -> "radius";
            case "asn" -> "asn";
            case "ipmobile" -> "ipmobile";
            default -> null;
        };
    }

    /**
     * The IOS timer {@code idle WORDS S} that holds the idle time of {@code service}'s bindings (its
     * {@code sticky.idle}): {@code gtp imsi}, {@code radius framed-ip}, {@code asn msid}; null when
     * the service has none (a client-address binding takes the {@code sticky S} line's duration).
     */
    static String stickyTimer(String service) {
        return switch (service) {
            case "gtp", "gtp-inspect" -> "gtp imsi";
            case "radius" -> "radius framed-ip";
            case "asn" -> "asn msid";
            default -> null;
        };
    }

    final String name;
    final IosCommand command;
    IosCommand virtual;
    InetAddress address;
    int port;
    /** The service's configuration name ({@code udp} for a virtual server without one). */
    String service;
    Optional<String> farm = Optional.empty();
    IosCommand farmLine;
    Optional<String> backup = Optional.empty();
    /** {@code serverfarm FARM map ID priority N} lines, in order. */
    final List<MapUse> maps = new ArrayList<>();
    final List<StickyKind> stickyKeys = new ArrayList<>();
    final List<IosCommand> stickyLines = new ArrayList<>();
    /** The sticky lines that name a group, and those that name a netmask. */
    final List<IosCommand> groupLines = new ArrayList<>();
    final List<IosCommand> netmaskLines = new ArrayList<>();
    Optional<Duration> stickyIdle = Optional.empty();
    IosCommand stickyIdleLine;
    OptionalInt netmaskBits = OptionalInt.empty();
    Optional<String> group = Optional.empty();
    Optional<Duration> idle = Optional.empty();
    IosCommand idleLine;
    /**
     * When the virtual address is announced: IOS's default (no line, or a bare {@code advertise}) is
     * while the server is in service; {@code advertise active} while a real serves; {@code no advertise}
     * never (empty). Cisco IOS SLB Command Reference, "advertise".
     */
    Optional<io.switchboard.director.config.Advertise> advertise =
            Optional.of(io.switchboard.director.config.Advertise.INSERVICE);
    IosCommand advertiseLine;
    /** {@code idle PROTOCOL request S}: the {@code response-timeout}. */
    Optional<Duration> requestIdle = Optional.empty();
    IosCommand requestIdleLine;
    Optional<Duration> delay = Optional.empty();
    IosCommand delayLine;
    OptionalInt synLimit = OptionalInt.empty();
    Optional<Duration> synInterval = Optional.empty();
    IosCommand synLine;
    final List<Subnet> clients = new ArrayList<>();
    /** {@code access INTERFACE} lines: the interfaces served, in order, once each. */
    final List<String> access = new ArrayList<>();
    final List<IosCommand> accessLines = new ArrayList<>();
    final List<IosCommand> clientLines = new ArrayList<>();
    boolean inService;
    IosCommand inServiceLine;
    OptionalInt cacReassign = OptionalInt.empty();
    IosCommand cacLine;
    /** {@code [no] purge radius framed-ip acct {stop|on-off}} lines, in order (IOS keeps the last of each). */
    final List<IosCommand> purgeLines = new ArrayList<>();
    Optional<String> localAckKey = Optional.empty();
    IosCommand localAckLine;

    /** A GTP map's creates go to {@code farm}, maps tried by ascending priority. */
    record MapUse(String map, String farm, int priority, IosCommand line) {
    }

    IosVirtualServer(String name, IosCommand command) {
        this.name = name;
        this.command = command;
    }

    String path(String key) {
        return "virtual-servers." + name + "." + key;
    }

    /** The transport the {@code virtual} line names. */
    boolean tcp() {
        return "tcp".equals(service);
    }

    boolean has(StickyKind kind) {
        return stickyKeys.contains(kind);
    }
}
