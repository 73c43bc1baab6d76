/**
 * RADIUS (RFC 2865, 2866, 3579, 5176): {@link io.switchboard.codec.radius.RadiusView}, a flyweight over a
 * packet for the hot path; {@link io.switchboard.codec.radius.RadiusAuthenticators} for verifying, signing
 * and re-signing in place; {@link io.switchboard.codec.radius.RadiusVendorAttributes} for adding or
 * replacing a vendor sub-attribute; {@link io.switchboard.codec.radius.RadiusPacket} as the full model.
 * Every function borrows its ByteBuf: none retains or releases it.
 */
package io.switchboard.codec.radius;
