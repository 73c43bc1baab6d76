package io.switchboard.codec.gtp.v0;

/**
 * The byte order of the 8-octet Tunnel Identifier in a GTPv0 header. GSM 09.60 §6 puts IMSI digit 1
 * in the low nibble of the first octet and the NSAPI in the high nibble of the last; libgtp
 * (osmo-ggsn, sgsnemu) writes the same 64-bit value byte-reversed. A director keying on the IMSI
 * must be configured for what its peers send (see docs/interop.md).
 */
public enum GtpV0TidOrder {
    /** GSM 09.60 §6: octet 13 = digit 2 | digit 1 ... octet 20 = NSAPI | digit 15. */
    GSM_09_60,
    /** libgtp: the GSM 09.60 octets in reverse order (octet 13 = NSAPI | digit 15). */
    LIBGTP_REVERSED;

    /** The index within the TID of the {@code i}-th octet in GSM 09.60 order. */
    int octet(int i) {
        return this == GSM_09_60 ? i : 7 - i;
    }
}
