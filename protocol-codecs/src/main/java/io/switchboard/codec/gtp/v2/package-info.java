/**
 * GTPv2-C, TS 29.274: the header with optional TEID and the piggyback flag, TLV information elements
 * with instances, grouped Bearer Context, message, IE type and cause codes as open value classes.
 */
package io.switchboard.codec.gtp.v2;
