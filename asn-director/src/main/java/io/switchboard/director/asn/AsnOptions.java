package io.switchboard.director.asn;

import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.director.config.ServiceOptions;

/**
 * The {@code asn:} settings of an ASN virtual server.
 *
 * @param release        the WiMAX Forum NWG release the base stations and gateways speak: it numbers
 *                       the MS_PreAttachment messages (6/7/8 in R1.0 v1.0.0, 1/2/3 from v1.2.0 on)
 * @param relayResponses true: gateways answer the director, which relays each response to the base
 *                       station from the virtual address; false (IOS): the director forwards and
 *                       forgets, and the gateway answers the base station by itself
 */
public record AsnOptions(NwgRelease release, boolean relayResponses) implements ServiceOptions {

    /** NWG R1.0 v1.2.1 (tshark's default too), gateways answer base stations directly as in IOS. */
    public static final AsnOptions DEFAULT = new AsnOptions(NwgRelease.R1_0_V1_2_1, false);
}
