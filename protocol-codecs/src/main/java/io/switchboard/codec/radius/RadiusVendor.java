package io.switchboard.codec.radius;

/** SMI Private Enterprise Numbers seen in Vendor-Specific attributes (RFC 2865 §5.26). */
public final class RadiusVendor {

    public static final int CISCO = 9;
    public static final int THREE_GPP = 10415;
    public static final int WIMAX_FORUM = 24757;

    private RadiusVendor() {
    }
}
