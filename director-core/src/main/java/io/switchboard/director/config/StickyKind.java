package io.switchboard.director.config;

import java.util.Arrays;
import java.util.Optional;

/** What a sticky table is keyed by. Each kind is one table per virtual server (or sticky group). */
public enum StickyKind {
    /** The client's IP address, optionally masked to a subnet (generic UDP/TCP). */
    CLIENT_ADDRESS("client-address"),
    /** IMSI from GTP (v0 TID, v1 IE 2, v2 IE 1). */
    IMSI("imsi"),
    /** WiMAX MSID (the MS's MAC address) from the R6 header. */
    MSID("msid"),
    /** RADIUS Framed-IP-Address. */
    FRAMED_IP("framed-ip"),
    /** RADIUS Calling-Station-Id (MSISDN in 3GPP, MSID in CDMA). */
    CALLING_STATION_ID("calling-station-id"),
    /** RADIUS User-Name. */
    USERNAME("username");

    private final String configName;

    StickyKind(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Optional<StickyKind> fromConfigName(String name) {
        return Arrays.stream(values()).filter(k -> k.configName.equals(name)).findFirst();
    }
}
