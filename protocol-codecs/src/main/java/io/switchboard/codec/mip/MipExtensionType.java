package io.switchboard.codec.mip;

import io.switchboard.codec.OctetCode;
import io.switchboard.codec.OctetCodes;

/**
 * The Type of a Mobile IPv4 registration extension. An open value class.
 *
 * <p>Two facts decide how an extension is read, and they are independent. Skippability comes from the
 * type range (RFC 5944 §1.9): an unrecognised type 0..127 makes the whole message be discarded, an
 * unrecognised 128..255 is skipped. The header comes from the extension's definition: most are
 * Type (1), Length (1), Data (RFC 5944 §1.9, including the "short" format of §1.11 whose Sub-Type is
 * the first data octet), while the few defined in the "long" format of §1.10 carry Type (1), Sub-Type (1),
 * Length (2) — the Generalized Authentication extension 36 (RFC 3012 §5), CVSE 38 (RFC 3115 §3.1,
 * whose second octet is Reserved) and the non-skippable PMIPv4 extension 47 (RFC 5563 §3).
 */
public final class MipExtensionType extends OctetCode {

    private static final OctetCodes<MipExtensionType> CODES = new OctetCodes<>("Mobile IP extension type");

    public static final MipExtensionType MN_HA_AUTHENTICATION = named(32, "MN-HA-Authentication");   // RFC 5944 §3.5.2
    public static final MipExtensionType MN_FA_AUTHENTICATION = named(33, "MN-FA-Authentication");   // RFC 5944 §3.5.3
    public static final MipExtensionType FA_HA_AUTHENTICATION = named(34, "FA-HA-Authentication");   // RFC 5944 §3.5.4
    public static final MipExtensionType GENERALIZED_AUTHENTICATION = named(36, "Generalized-Authentication"); // RFC 3012 §5
    public static final MipExtensionType CRITICAL_VENDOR_SPECIFIC = named(38, "CVSE");               // RFC 3115 §3.1
    public static final MipExtensionType PMIPV4_NON_SKIPPABLE = named(47, "PMIPv4-Non-Skippable");   // RFC 5563 §3
    public static final MipExtensionType MN_NAI = named(131, "MN-NAI");                               // RFC 2794 §2
    public static final MipExtensionType MN_FA_CHALLENGE = named(132, "MN-FA-Challenge");             // RFC 3012 §3
    public static final MipExtensionType NORMAL_VENDOR_SPECIFIC = named(134, "NVSE");                 // RFC 3115 §3.2

    static {
        CODES.complete(value -> new MipExtensionType(value, "Extension-" + value, false));
    }

    private MipExtensionType(int value, String name, boolean named) {
        super(value, name, named);
    }

    private static MipExtensionType named(int value, String name) {
        return CODES.define(new MipExtensionType(value, name, true));
    }

    /** The code with this value, named or not; never null for 0..255. */
    public static MipExtensionType valueOf(int value) {
        return CODES.of(value);
    }

    /** Whether extensions of this type use the long header: Type, Sub-Type, 2-octet Length (RFC 5944 §1.10). */
    public static boolean hasLongHeader(int type) {
        return type == 36 || type == 38 || type == 47;
    }

    /** Whether a receiver that does not know the type may skip it (128..255, RFC 5944 §1.9). */
    public static boolean isSkippable(int type) {
        return type >= 128;
    }

    /** Whether the type is one of the authentication extensions whose data is SPI (4) + authenticator. */
    public static boolean isAuthentication(int type) {
        return type == 32 || type == 33 || type == 34 || type == 36;
    }

    @Override
    public String toString() {
        return name() + "(" + value() + ")";
    }
}
