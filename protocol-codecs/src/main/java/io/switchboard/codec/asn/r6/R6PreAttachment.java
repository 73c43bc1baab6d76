package io.switchboard.codec.asn.r6;

/** The three MS_PreAttachment messages of function type MS State, which the ASN director acts on. */
public enum R6PreAttachment {
    REQUEST,
    RESPONSE,
    ACK
}
