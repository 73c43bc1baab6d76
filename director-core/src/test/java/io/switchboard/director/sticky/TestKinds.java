package io.switchboard.director.sticky;

import io.switchboard.director.spi.StickyKind;

/**
 * Sticky key kinds as the protocol plug-ins define them (each is equal to the plug-in's own, kinds
 * being equal by name), for engine tests that key tables by subscriber identities.
 */
public final class TestKinds {

    public static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);
    public static final StickyKind MSID = StickyKind.of("msid", StickyKind.Format.COLON_HEX);
    public static final StickyKind FRAMED_IP = StickyKind.of("framed-ip", StickyKind.Format.ADDRESS);
    public static final StickyKind CALLING_STATION_ID = StickyKind.of("calling-station-id", StickyKind.Format.TEXT);
    public static final StickyKind USERNAME = StickyKind.of("username", StickyKind.Format.TEXT);

    private TestKinds() {
    }
}
