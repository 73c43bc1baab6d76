/**
 * Mobile IPv4 registration (RFC 5944, UDP 434): {@link io.switchboard.codec.mip.MipHeaderView} for the hot
 * path (type, identification, home address, home agent, in-place Home Agent rewrite) and
 * {@link io.switchboard.codec.mip.MipMessage} as the full model, with extensions kept as bytes.
 */
package io.switchboard.codec.mip;
