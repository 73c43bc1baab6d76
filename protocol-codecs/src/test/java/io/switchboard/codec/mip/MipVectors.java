package io.switchboard.codec.mip;

import java.util.Map;

/**
 * Mobile IPv4 vectors, built with Python (HMAC-MD5 from its hmac module, RFC 5944 §3.5.1) and checked
 * with tshark 4.0.17's Mobile IP dissector, which frames every extension below the same way
 * (including the long headers of 36 and 38 and the sub-type-less MN-NAI).
 * Addresses: home 10.0.0.5, home agent 192.0.2.1, care-of 198.51.100.7.
 */
final class MipVectors {

    /** Registration Request, flags S and T, MN-NAI, an unknown skippable extension, MN-HA (SPI 0x100, HMAC-MD5 key mn-ha-key), MN-FA (key mn-fa-key), Generalized MN-AAA authentication (RFC 3012, long header) and FA-HA (key fa-ha-key). */
    static final String REQUEST = """
            01 82 07 08   # type 1 Registration Request, flags 82, lifetime 1800
            0a 00 00 05 c0 00 02 01 c6 33 64 07   # home address, home agent, care-of address
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            96 03 01 02 03   # unknown skippable 150
            20 14 00 00 01 00 af 76 fd 4f 7d fc ce 15 7c 17 04 88 37 ae 84 32   # MN-HA-Authentication
            21 14 00 00 02 00 d3 24 97 58 90 d0 b7 b1 7d 56 09 cc 4a 74 17 97   # MN-FA-Authentication
            24 01 00 14 00 00 03 00 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f   # Generalized-Authentication (long header)
            22 14 00 00 04 00 08 f0 b6 d1 0f 0d 0f e1 c0 2c 53 5f 3c 4f 01 5b   # FA-HA-Authentication
            """;

    /** Deregistration (lifetime 0) with a CVSE (RFC 3115, long header, vendor 5535) and MN-HA. */
    static final String DEREGISTRATION = """
            01 00 00 00   # type 1 Registration Request, flags 00, lifetime 0
            0a 00 00 05 c0 00 02 01 0a 00 00 05   # home address, home agent, care-of address
            e8 f5 c2 a1 00 00 00 02   # identification
            26 00 00 08 00 00 15 9f 00 03 aa bb   # CVSE (long header)
            20 14 00 00 01 00 db d5 34 b6 9a 14 5c bc 87 bf 97 00 11 dd ef f4   # MN-HA-Authentication
            """;

    /** Registration Reply code 0, accepted; MN-NAI and MN-HA (key mn-ha-key). */
    static final String REPLY_ACCEPTED = """
            03 00 07 08   # type 3 Registration Reply, code 0, lifetime 1800
            0a 00 00 05 c0 00 02 01   # home address, home agent
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            20 14 00 00 01 00 2a 77 74 e7 8e ab 4b be 96 18 c7 b6 71 86 ce e5   # MN-HA-Authentication
            """;

    /** Registration Reply code 1, accepted, simultaneous bindings unsupported; MN-NAI and MN-HA (key mn-ha-key). */
    static final String REPLY_ACCEPTED_NO_SIMULTANEOUS = """
            03 01 07 08   # type 3 Registration Reply, code 1, lifetime 1800
            0a 00 00 05 c0 00 02 01   # home address, home agent
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            20 14 00 00 01 00 02 df f9 b0 02 7f 00 ad e3 9f 04 12 11 20 a8 94   # MN-HA-Authentication
            """;

    /** Registration Reply code 66, denied by the FA: insufficient resources; MN-NAI and MN-HA (key mn-ha-key). */
    static final String REPLY_FA_INSUFFICIENT_RESOURCES = """
            03 42 00 00   # type 3 Registration Reply, code 66, lifetime 0
            0a 00 00 05 c0 00 02 01   # home address, home agent
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            20 14 00 00 01 00 70 60 64 af aa 52 b8 31 fa a2 1a bc db 3e a9 63   # MN-HA-Authentication
            """;

    /** Registration Reply code 130, denied by the HA: insufficient resources; MN-NAI and MN-HA (key mn-ha-key). */
    static final String REPLY_HA_INSUFFICIENT_RESOURCES = """
            03 82 00 00   # type 3 Registration Reply, code 130, lifetime 0
            0a 00 00 05 c0 00 02 01   # home address, home agent
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            20 14 00 00 01 00 bc 1e bb 81 47 9b 45 49 68 4e ed f6 2f b1 37 e6   # MN-HA-Authentication
            """;

    /** Registration Reply code 136, denied by the HA: unknown home agent address; MN-NAI and MN-HA (key mn-ha-key). */
    static final String REPLY_HA_UNKNOWN_HOME_AGENT = """
            03 88 00 00   # type 3 Registration Reply, code 136, lifetime 0
            0a 00 00 05 c0 00 02 01   # home address, home agent
            e8 f5 c2 a1 00 00 00 01   # identification
            83 0f 6d 6e 31 40 65 78 61 6d 70 6c 65 2e 6e 65 74   # MN-NAI
            20 14 00 00 01 00 ad 37 ed 9d 85 a2 14 5d 84 37 7a 06 e8 0a 41 b9   # MN-HA-Authentication
            """;


    static final Map<String, String> ALL = Map.of(
            "REQUEST", REQUEST,
            "DEREGISTRATION", DEREGISTRATION,
            "REPLY_ACCEPTED", REPLY_ACCEPTED,
            "REPLY_ACCEPTED_NO_SIMULTANEOUS", REPLY_ACCEPTED_NO_SIMULTANEOUS,
            "REPLY_FA_INSUFFICIENT_RESOURCES", REPLY_FA_INSUFFICIENT_RESOURCES,
            "REPLY_HA_INSUFFICIENT_RESOURCES", REPLY_HA_INSUFFICIENT_RESOURCES,
            "REPLY_HA_UNKNOWN_HOME_AGENT", REPLY_HA_UNKNOWN_HOME_AGENT);

    private MipVectors() {
    }
}
