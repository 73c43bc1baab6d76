package io.switchboard.pcap;

/**
 * The signaling protocols Switchboard directs, recognised in a capture by UDP port (destination port
 * first, then source port) and, on the GTP-C ports, by the version bits of the first octet.
 */
public enum SignalingProtocol {
    GTPV0("gtpv0"),
    GTPV1("gtpv1"),
    GTPV2("gtpv2"),
    RADIUS("radius"),
    MIP("mip"),
    R6("r6");

    public static final int GTPV0_PORT = 3386;   // GSM 09.60 §7.1
    public static final int GTPC_PORT = 2123;    // TS 29.060 §19, TS 29.274 §4.2
    public static final int MIP_PORT = 434;      // RFC 5944 §3.1
    public static final int R6_PORT = 2231;      // WiMAX NWG Stage 3, ASN control plane

    private final String label;

    SignalingProtocol(String label) {
        this.label = label;
    }

    /** The name {@code switchboard inspect} prints: gtpv0, gtpv1, gtpv2, radius, mip, r6. */
    public String label() {
        return label;
    }

    /** The protocol of a UDP datagram, or {@code null} for one Switchboard does not direct. */
    public static SignalingProtocol classify(int sourcePort, int destinationPort, byte[] payload) {
        SignalingProtocol byDestination = byPort(destinationPort, payload);
        return byDestination != null ? byDestination : byPort(sourcePort, payload);
    }

    private static SignalingProtocol byPort(int port, byte[] payload) {
        return switch (port) {
            case GTPC_PORT, GTPV0_PORT -> {
                int version = payload.length == 0 ? -1 : (payload[0] & 0xFF) >>> 5;
                yield switch (version) {
                    case 0 -> GTPV0;
                    case 1 -> GTPV1;
                    case 2 -> GTPV2;
                    // Unknown versions stay with the port's own protocol, and decode to an error.
                    default -> port == GTPV0_PORT ? GTPV0 : GTPV2;
                };
            }
            // RFC 2865/2866 (1812/1813), legacy 1645/1646, RFC 5176 (3799), and 1700 (early CoA).
            case 1812, 1813, 1645, 1646, 3799, 1700 -> RADIUS;
            case MIP_PORT -> MIP;
            case R6_PORT -> R6;
            default -> null;
        };
    }
}
