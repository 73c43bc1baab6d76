/**
 * GTPv0, GSM 09.60: the 20-octet header with the TID (IMSI and NSAPI) that identifies every
 * session, TV/TLV information elements with GSM 09.60's own TV lengths (modelled by the GTPv1 IE
 * records), and both TID byte orders met in the field ({@link io.switchboard.codec.gtp.v0.GtpV0TidOrder}).
 */
package io.switchboard.codec.gtp.v0;
