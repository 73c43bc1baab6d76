package io.switchboard.director.config;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * Stickiness of a virtual server: keys tried in order (the first one present in a request is used),
 * the idle time after which an unused binding expires, the subnet prefix applied to client addresses,
 * and a bound on the number of bindings.
 */
public record StickyConfig(List<StickyKind> keys, Duration idle, OptionalInt netmaskBits, int maxEntries) {

    public static final int DEFAULT_MAX_ENTRIES = 1_000_000;

    public StickyConfig {
        keys = List.copyOf(keys);
    }
}
