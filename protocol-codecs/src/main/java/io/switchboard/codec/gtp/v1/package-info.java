/**
 * GTPv1-C, TS 29.060: the 8/12-octet header with its extension header chain, TV (fixed length per
 * §7.7) and TLV information elements, message, IE type and cause codes as open value classes.
 */
package io.switchboard.codec.gtp.v1;
