package io.switchboard.director.gtp;

import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.config.ServiceOptions;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code gtp:} settings of a {@code gtp} or {@code gtp-inspect} virtual server.
 *
 * @param versions         the GTP versions this virtual server serves: {@code [0]} (port 3386) or a
 *                         non-empty subset of {@code [1, 2]} (port 2123); a message of another version
 *                         is answered with Version Not Supported
 * @param reassign         how many other reals a create rejected with a resource cause may be resent
 *                         to ({@code gtp-inspect})
 * @param resourceCausesV1 GTPv0/v1 causes that mean "this real has no resources" (TS 29.060 §7.7.1)
 * @param resourceCausesV2 GTPv2 causes with the same meaning (TS 29.274 §8.4)
 * @param carrierCodes     allowed MCC+MNC prefixes of the IMSI (5 or 6 digits); empty allows every IMSI
 * @param v0TidOrder       how GTPv0 peers write the TID (see docs/interop.md: libgtp reverses it)
 * @param recovery         the restart counter the director sends in its own Echo Responses
 *                         (TS 29.060 §7.7.11, TS 29.274 §8.5) when no {@code recoveryFile} is set
 * @param recoveryFile     a file holding the restart counter: read, incremented (modulo 256) and
 *                         written back each time the virtual server starts, as GTP requires of a
 *                         node's Recovery value
 * @param unstickOnDelete  {@code gtp-inspect}: an IMSI's sticky binding ends when its last session is
 *                         deleted (else only after the sticky idle time)
 * @param sessionIdle      {@code gtp-inspect}: a session that sees no message for this long ends (a
 *                         lost Delete must not keep it, and its real's count, for ever)
 * @param directorAddresses {@code gtp-inspect}: the addresses written into Create messages in place of
 *                         the peers' control-plane addresses, at most one IPv4 and one IPv6; empty
 *                         means the virtual address. Each must reach this virtual server's socket.
 * @param apnMaps          {@code gtp-inspect}: creates whose APN matches a map are balanced in its farm
 *                         instead of the virtual server's, the maps tried by ascending priority
 */
public record GtpOptions(Set<Integer> versions, int reassign, Set<Integer> resourceCausesV1,
        Set<Integer> resourceCausesV2, List<String> carrierCodes, GtpV0TidOrder v0TidOrder, int recovery,
        Optional<Path> recoveryFile, boolean unstickOnDelete, Duration sessionIdle,
        List<InetAddress> directorAddresses, List<ApnMap> apnMaps) implements ServiceOptions {

    /**
     * An APN map (IOS SLB {@code map ... gtp} with {@code apn}): creates whose APN Network Identifier
     * matches {@code apn} go to {@code farm}.
     *
     * @param apn      a pattern over the dotted APN, case-insensitive, {@code *} any characters and
     *                 {@code ?} one ({@code ims}, {@code *.corp}, {@code internet*})
     * @param priority lower first; among equal priorities the first listed
     */
    public record ApnMap(String apn, String farm, int priority) {

        public ApnMap {
            if (apn.isEmpty() || farm.isEmpty()) {
                throw new IllegalArgumentException("an APN map needs an apn pattern and a farm");
            }
        }

        /** The pattern as a regular expression over the whole APN. */
        public java.util.regex.Pattern regex() {
            StringBuilder re = new StringBuilder();
            for (char c : apn.toCharArray()) {
                re.append(c == '*' ? ".*" : c == '?' ? "." : java.util.regex.Pattern.quote(String.valueOf(c)));
            }
            return java.util.regex.Pattern.compile(re.toString(), java.util.regex.Pattern.CASE_INSENSITIVE);
        }
    }

    /** How long an idle {@code gtp-inspect} session lives by default: a day without any message. */
    public static final Duration DEFAULT_SESSION_IDLE = Duration.ofHours(24);

    /** IOS SLB resource causes, TS 29.060 §7.7.1: no resources, system failure, addresses occupied, no memory. */
    public static final Set<Integer> DEFAULT_RESOURCE_CAUSES_V1 = Set.of(199, 204, 211, 212);
    /** TS 29.274 §8.4: system failure, no resources, all dynamic addresses occupied, no memory. */
    public static final Set<Integer> DEFAULT_RESOURCE_CAUSES_V2 = Set.of(72, 73, 84, 91);
    public static final int DEFAULT_REASSIGN = 2;

    /** What a virtual server without a {@code gtp:} key gets: GTPv1 and v2 on one port. */
    public static final GtpOptions DEFAULT = new GtpOptions(Set.of(1, 2), DEFAULT_REASSIGN,
            DEFAULT_RESOURCE_CAUSES_V1, DEFAULT_RESOURCE_CAUSES_V2, List.of(), GtpV0TidOrder.GSM_09_60, 0);

    /** Options with a fixed Recovery value and bindings released with an IMSI's last session. */
    public GtpOptions(Set<Integer> versions, int reassign, Set<Integer> resourceCausesV1, Set<Integer> resourceCausesV2,
            List<String> carrierCodes, GtpV0TidOrder v0TidOrder, int recovery) {
        this(versions, reassign, resourceCausesV1, resourceCausesV2, carrierCodes, v0TidOrder, recovery,
                Optional.empty(), true);
    }

    /** Options with the default session idle time, written addresses the virtual address. */
    public GtpOptions(Set<Integer> versions, int reassign, Set<Integer> resourceCausesV1, Set<Integer> resourceCausesV2,
            List<String> carrierCodes, GtpV0TidOrder v0TidOrder, int recovery, Optional<Path> recoveryFile,
            boolean unstickOnDelete) {
        this(versions, reassign, resourceCausesV1, resourceCausesV2, carrierCodes, v0TidOrder, recovery,
                recoveryFile, unstickOnDelete, DEFAULT_SESSION_IDLE, List.of());
    }

    /** Options without APN maps. */
    public GtpOptions(Set<Integer> versions, int reassign, Set<Integer> resourceCausesV1, Set<Integer> resourceCausesV2,
            List<String> carrierCodes, GtpV0TidOrder v0TidOrder, int recovery, Optional<Path> recoveryFile,
            boolean unstickOnDelete, Duration sessionIdle, List<InetAddress> directorAddresses) {
        this(versions, reassign, resourceCausesV1, resourceCausesV2, carrierCodes, v0TidOrder, recovery,
                recoveryFile, unstickOnDelete, sessionIdle, directorAddresses, List.of());
    }

    /** The APN maps' farms, by the path of the key naming each. */
    @Override
    public java.util.Map<String, String> farmReferences() {
        java.util.Map<String, String> farms = new java.util.LinkedHashMap<>();
        for (int i = 0; i < apnMaps.size(); i++) {
            farms.put("gtp.apn-maps[" + i + "].farm", apnMaps.get(i).farm());
        }
        return farms;
    }

    public GtpOptions {
        directorAddresses = List.copyOf(directorAddresses);
        apnMaps = List.copyOf(apnMaps); // in the order listed (the paths of farmReferences); tried by priority
        if (sessionIdle.isNegative() || sessionIdle.isZero()) {
            throw new IllegalArgumentException("session-idle must be > 0: " + sessionIdle);
        }
        if (directorAddresses.stream().filter(a -> a instanceof Inet4Address).count() > 1
                || directorAddresses.stream().filter(a -> !(a instanceof Inet4Address)).count() > 1) {
            throw new IllegalArgumentException("director-addresses: at most one IPv4 and one IPv6 address");
        }
        versions = Set.copyOf(versions);
        resourceCausesV1 = Set.copyOf(resourceCausesV1);
        resourceCausesV2 = Set.copyOf(resourceCausesV2);
        carrierCodes = List.copyOf(carrierCodes);
        if (versions.isEmpty() || versions.stream().anyMatch(v -> v < 0 || v > 2)) {
            throw new IllegalArgumentException("versions must be a non-empty subset of 0, 1, 2: " + versions);
        }
        if (versions.contains(0) && versions.size() > 1) {
            throw new IllegalArgumentException("GTPv0 (port 3386) and v1/v2 (port 2123) need separate virtual servers");
        }
        if (recovery < 0 || recovery > 255) {
            throw new IllegalArgumentException("recovery must be 0..255: " + recovery);
        }
    }

    public boolean serves(int version) {
        return versions.contains(version);
    }
}
