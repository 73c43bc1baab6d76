/**
 * WiMAX ASN R6 control plane (WiMAX Forum NWG Stage 3, UDP 2231): {@link io.switchboard.codec.asn.r6.R6View}
 * for the hot path (MSID, transaction id, MS_PreAttachment recognition per
 * {@link io.switchboard.codec.asn.r6.NwgRelease}) and {@link io.switchboard.codec.asn.r6.R6Message} as the
 * full model, with TLVs kept as bytes.
 */
package io.switchboard.codec.asn.r6;
