package io.switchboard.codec.asn.r6;

import java.util.Map;

/**
 * R6 vectors, built with Python and checked with tshark 4.0.17's wimaxasncp dissector (the same bytes
 * are in src/test/resources/pcaps/r6). TLV numbers are those of tshark's NWG dictionary: 25 BS ID,
 * 26 BS Info, 69 Failure Indication, 103 MS Info, 271/272 Destination/Source Identifier.
 */
final class R6Vectors {

    /** MS_PreAttachment_Req as numbered in R1.0 v1.2.x: MS Info, BS Info. */
    static final String PRE_ATTACHMENT_REQ_V12 = """
            01 00 09 21   # version 1, flags 00, function type 9, OP-ID 1 (Request) + message type 1
            00 2c   # length 44
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 67 00 06 ff f0 00 02 01 02   # MS Info (compound)
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Rsp as numbered in R1.0 v1.2.x: Failure Indication 0, MS Info, BS Info. */
    static final String PRE_ATTACHMENT_RSP_V12 = """
            01 00 09 42   # version 1, flags 00, function type 9, OP-ID 2 (Response) + message type 2
            00 31   # length 49
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 45 00 01 00   # Failure Indication
            00 67 00 06 ff f0 00 02 01 02   # MS Info (compound)
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Ack as numbered in R1.0 v1.2.x: BS Info. */
    static final String PRE_ATTACHMENT_ACK_V12 = """
            01 00 09 63   # version 1, flags 00, function type 9, OP-ID 3 (Ack) + message type 3
            00 22   # length 34
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Req as numbered in R1.0 v1.0.0: MS Info, BS Info. */
    static final String PRE_ATTACHMENT_REQ_V100 = """
            01 00 09 26   # version 1, flags 00, function type 9, OP-ID 1 (Request) + message type 6
            00 2c   # length 44
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 67 00 06 ff f0 00 02 01 02   # MS Info (compound)
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Rsp as numbered in R1.0 v1.0.0: Failure Indication 0, MS Info, BS Info. */
    static final String PRE_ATTACHMENT_RSP_V100 = """
            01 00 09 47   # version 1, flags 00, function type 9, OP-ID 2 (Response) + message type 7
            00 31   # length 49
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 45 00 01 00   # Failure Indication
            00 67 00 06 ff f0 00 02 01 02   # MS Info (compound)
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Ack as numbered in R1.0 v1.0.0: BS Info. */
    static final String PRE_ATTACHMENT_ACK_V100 = """
            01 00 09 68   # version 1, flags 00, function type 9, OP-ID 3 (Ack) + message type 8
            00 22   # length 34
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            01 01   # transaction id 0x0101
            00 00   # reserved
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** MS_PreAttachment_Req (v1.2.x) with flag 0x02: Destination and Source Identifier TLVs (IPv4). */
    static final String PRE_ATTACHMENT_REQ_WITH_IDENTIFIERS = """
            01 02 09 21   # version 1, flags 02, function type 9, OP-ID 1 (Request) + message type 1
            00 3c   # length 60
            0a 1b 2c 3d 4e 5f   # MSID 0a:1b:2c:3d:4e:5f
            00 00 00 00   # reserved
            81 02   # transaction id 0x8102
            00 00   # reserved
            01 0f 00 04 c0 00 02 0a   # Destination Identifier
            01 10 00 04 c0 00 02 14   # Source Identifier
            00 67 00 06 ff f0 00 02 01 02   # MS Info (compound)
            00 1a 00 0a 00 19 00 06 00 e0 fc 12 34 56   # BS Info (compound)
            """;

    /** Data Path Control indication, flag 0x01, non-zero reserved octets and an empty unknown TLV: kept as they are. */
    static final String OTHER_FUNCTION = """
            01 01 03 85   # version 1, flags 01, function type 3, OP-ID 4 (Indication) + message type 5
            00 18   # length 24
            fe dc ba 98 76 54   # MSID fe:dc:ba:98:76:54
            01 02 03 04   # reserved
            be ef   # transaction id 0xbeef
            05 06   # reserved
            ff f0 00 00   # unknown TLV 0xfff0
            """;


    static final Map<String, String> ALL = Map.of(
            "PRE_ATTACHMENT_REQ_V12", PRE_ATTACHMENT_REQ_V12,
            "PRE_ATTACHMENT_RSP_V12", PRE_ATTACHMENT_RSP_V12,
            "PRE_ATTACHMENT_ACK_V12", PRE_ATTACHMENT_ACK_V12,
            "PRE_ATTACHMENT_REQ_V100", PRE_ATTACHMENT_REQ_V100,
            "PRE_ATTACHMENT_RSP_V100", PRE_ATTACHMENT_RSP_V100,
            "PRE_ATTACHMENT_ACK_V100", PRE_ATTACHMENT_ACK_V100,
            "PRE_ATTACHMENT_REQ_WITH_IDENTIFIERS", PRE_ATTACHMENT_REQ_WITH_IDENTIFIERS,
            "OTHER_FUNCTION", OTHER_FUNCTION);

    private R6Vectors() {
    }
}
