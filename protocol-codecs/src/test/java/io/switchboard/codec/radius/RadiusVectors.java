package io.switchboard.codec.radius;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * RADIUS test vectors. The RFC 2865 §7.1 example comes from the RFC; the others were computed with
 * Python's hashlib/hmac (a second, independent implementation of RFC 2865 §3/§5.2, RFC 2866 §3,
 * RFC 3579 §3.2 and RFC 5176 §2.3/§3.3) with the secret {@link #SECRET}.
 */
final class RadiusVectors {

    static final byte[] SECRET = "s3cr3t-radius".getBytes(StandardCharsets.US_ASCII);

    /** RFC 2865 §7.1: Access-Request from NAS 192.168.1.16 port 3, user nemo, password arctangent, secret xyzzy5461. */
    static final String RFC2865_ACCESS_REQUEST = """
            01 00 00 38   # Access-Request, id 0, length 56
            0f 40 3f 94 73 97 80 57 bd 83 d5 cb 98 f4 22 7a   # request authenticator (random)
            01 06 6e 65 6d 6f   # User-Name "nemo"
            02 12 0d be 70 8d 93 d4 13 ce 31 96 e4 3f 78 2a 0a ee   # User-Password, hidden
            04 06 c0 a8 01 10   # NAS-IP-Address 192.168.1.16
            05 06 00 00 00 03   # NAS-Port 3
            """;

    /** RFC 2865 §7.1: the Access-Accept answering {@link #RFC2865_ACCESS_REQUEST}. */
    static final String RFC2865_ACCESS_ACCEPT = """
            02 00 00 26   # Access-Accept, id 0, length 38
            86 fe 22 0e 76 24 ba 2a 10 05 f6 bf 9b 55 e0 b2   # response authenticator
            06 06 00 00 00 01   # Service-Type Login
            0f 06 00 00 00 00   # Login-Service Telnet
            0e 06 c0 a8 01 03   # Login-IP-Host 192.168.1.3
            """;

    static final byte[] RFC2865_SECRET = "xyzzy5461".getBytes(StandardCharsets.US_ASCII);

    /** Access-Request: User-Name alice, password hunter2 hidden with the request authenticator, Message-Authenticator (RFC 3579 §3.2). */
    static final String ACCESS_REQUEST = """
            01 2a 00 58   # Access-Request, id 42, length 88
            a1 a2 a3 a4 a5 a6 a7 a8 a9 aa ab ac ad ae af b0   # authenticator
            01 07 61 6c 69 63 65   # User-Name
            02 12 86 09 14 20 b3 9c f9 04 c3 78 bf 7c 2c 9b 0e 54   # User-Password
            1f 13 30 30 2d 31 31 2d 32 32 2d 33 33 2d 34 34 2d 35 35   # Calling-Station-Id
            04 06 0a 00 00 01   # NAS-IP-Address
            50 12 af f1 0a 41 e4 03 bf 94 cf 37 d5 95 c3 cd ef 82   # Message-Authenticator
            """;

    /** Access-Accept for ACCESS_REQUEST: Framed-IP-Address 10.1.2.3, Cisco (9) AV-pair VSA, Message-Authenticator. */
    static final String ACCESS_ACCEPT = """
            02 2a 00 43   # Access-Accept, id 42, length 67
            56 6b b0 38 53 a4 ec a9 6e d5 1b 54 bf ae b7 09   # authenticator
            08 06 0a 01 02 03   # Framed-IP-Address
            1a 17 00 00 00 09 01 11 69 70 3a 61 64 64 72 2d 70 6f 6f 6c 3d 70 31   # Vendor-Specific
            50 12 bb 47 e3 04 24 49 d2 ba 5e 7e ae f7 54 48 f9 65   # Message-Authenticator
            """;

    /** Access-Reject for ACCESS_REQUEST: Reply-Message, Message-Authenticator. */
    static final String ACCESS_REJECT = """
            03 2a 00 2e   # Access-Reject, id 42, length 46
            89 81 0f 1f be 0a 1f 9b fb d4 f2 48 5c b9 68 78   # authenticator
            12 08 64 65 6e 69 65 64   # Reply-Message
            50 12 5d 88 35 dc c2 f5 6e 4d c0 4f 30 12 43 7a 3e bd   # Message-Authenticator
            """;

    /** Access-Challenge for ACCESS_REQUEST: State 00ff7e5a, Reply-Message, Message-Authenticator. */
    static final String ACCESS_CHALLENGE = """
            0b 2a 00 32   # Access-Challenge, id 42, length 50
            4b ac cf d6 34 ec fd 5c ff c8 e0 a0 8a b7 7b 71   # authenticator
            18 06 00 ff 7e 5a   # State
            12 06 6f 74 70 3f   # Reply-Message
            50 12 4d ed 06 8e ad 21 af 83 d1 ae c7 d2 07 4b 61 a1   # Message-Authenticator
            """;

    /** Accounting-Request Start: Acct-Session-Id sess-0001, Framed-IP-Address 10.1.2.3, 3GPP (10415) VSA; authenticator per RFC 2866 §3. */
    static final String ACCOUNTING_REQUEST = """
            04 07 00 51   # Accounting-Request, id 7, length 81
            1a a7 44 d0 65 c7 ef 7f 9f a7 8d 65 69 5d 50 af   # authenticator
            28 06 00 00 00 01   # Acct-Status-Type
            2c 0b 73 65 73 73 2d 30 30 30 31   # Acct-Session-Id
            01 07 61 6c 69 63 65   # User-Name
            08 06 0a 01 02 03   # Framed-IP-Address
            1f 13 30 30 2d 31 31 2d 32 32 2d 33 33 2d 34 34 2d 35 35   # Calling-Station-Id
            1a 0c 00 00 28 af 01 06 00 00 00 00   # Vendor-Specific
            """;

    /** Accounting-Response for ACCOUNTING_REQUEST. */
    static final String ACCOUNTING_RESPONSE = """
            05 07 00 14   # Accounting-Response, id 7, length 20
            09 17 ff 8e 51 0b 9d b0 12 82 2f a5 c2 e7 86 f3   # authenticator
            """;

    /** Status-Server with Message-Authenticator (RFC 5997 §2). */
    static final String STATUS_SERVER = """
            0c 99 00 26   # Status-Server, id 153, length 38
            01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10   # authenticator
            50 12 46 94 6f ff ab 44 34 9c a2 e1 29 dd 7b 5f c8 ee   # Message-Authenticator
            """;

    /** Status-Client (RFC 2865 §3; unused in practice): NAS-Identifier nas1. */
    static final String STATUS_CLIENT = """
            0d 9a 00 1a   # Status-Client, id 154, length 26
            01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10   # authenticator
            20 06 6e 61 73 31   # NAS-Identifier
            """;

    /** Disconnect-Request: User-Name, Acct-Session-Id, Message-Authenticator computed with a zero authenticator (RFC 5176 §3.3). */
    static final String DISCONNECT_REQUEST = """
            28 31 00 38   # Disconnect-Request, id 49, length 56
            44 d9 c6 a2 7b 3d 12 c0 da 1a 45 77 6d ae e0 f4   # authenticator
            01 07 61 6c 69 63 65   # User-Name
            2c 0b 73 65 73 73 2d 30 30 30 31   # Acct-Session-Id
            50 12 29 c6 e5 9e bc 41 ac cc 19 9c bb bb f2 3b 1c a4   # Message-Authenticator
            """;

    /** Disconnect-ACK for DISCONNECT_REQUEST. */
    static final String DISCONNECT_ACK = """
            29 31 00 14   # Disconnect-ACK, id 49, length 20
            f6 ec a9 1f c3 03 fd bc 9a 92 40 ac 29 f9 76 11   # authenticator
            """;

    /** Disconnect-NAK for DISCONNECT_REQUEST: Error-Cause 503 Session Context Not Found. */
    static final String DISCONNECT_NAK = """
            2a 31 00 1a   # Disconnect-NAK, id 49, length 26
            03 03 82 31 11 0e e7 18 4d 31 0a e7 76 15 49 ad   # authenticator
            65 06 00 00 01 f7   # Error-Cause
            """;

    /** CoA-Request: Acct-Session-Id, Cisco AV-pair, Message-Authenticator. */
    static final String COA_REQUEST = """
            2b 32 00 45   # CoA-Request, id 50, length 69
            21 c0 b1 e2 2a 4b bf 98 30 8b c5 7f 9b 44 bb 09   # authenticator
            2c 0b 73 65 73 73 2d 30 30 30 31   # Acct-Session-Id
            1a 14 00 00 00 09 01 0e 73 75 62 3a 71 6f 73 3d 67 6f 6c 64   # Vendor-Specific
            50 12 d0 22 c5 31 47 ff 2f 04 37 f0 b2 94 25 19 04 61   # Message-Authenticator
            """;

    /** CoA-ACK for COA_REQUEST. */
    static final String COA_ACK = """
            2c 32 00 14   # CoA-ACK, id 50, length 20
            c7 48 3d 6d 8f d2 10 71 3a 88 ba b8 c7 46 11 99   # authenticator
            """;

    /** CoA-NAK for COA_REQUEST: Error-Cause 404 Invalid Request. */
    static final String COA_NAK = """
            2d 32 00 1a   # CoA-NAK, id 50, length 26
            07 87 df 1e 1c 03 a8 9f 30 05 43 96 4a e3 a9 0e   # authenticator
            65 06 00 00 01 94   # Error-Cause
            """;


    /** Every vector by name, in code order. */
    static final Map<String, String> ALL = Map.ofEntries(
            Map.entry("ACCESS_REQUEST", ACCESS_REQUEST),
            Map.entry("ACCESS_ACCEPT", ACCESS_ACCEPT),
            Map.entry("ACCESS_REJECT", ACCESS_REJECT),
            Map.entry("ACCOUNTING_REQUEST", ACCOUNTING_REQUEST),
            Map.entry("ACCOUNTING_RESPONSE", ACCOUNTING_RESPONSE),
            Map.entry("ACCESS_CHALLENGE", ACCESS_CHALLENGE),
            Map.entry("STATUS_SERVER", STATUS_SERVER),
            Map.entry("STATUS_CLIENT", STATUS_CLIENT),
            Map.entry("DISCONNECT_REQUEST", DISCONNECT_REQUEST),
            Map.entry("DISCONNECT_ACK", DISCONNECT_ACK),
            Map.entry("DISCONNECT_NAK", DISCONNECT_NAK),
            Map.entry("COA_REQUEST", COA_REQUEST),
            Map.entry("COA_ACK", COA_ACK),
            Map.entry("COA_NAK", COA_NAK),
            Map.entry("RFC2865_ACCESS_REQUEST", RFC2865_ACCESS_REQUEST),
            Map.entry("RFC2865_ACCESS_ACCEPT", RFC2865_ACCESS_ACCEPT));

    private RadiusVectors() {
    }
}
