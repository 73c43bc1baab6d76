package io.switchboard.director.config;

import io.switchboard.director.spi.StickyKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Stickiness of a virtual server: keys tried in order (the first one present in a request is used),
 * the idle time after which an unused binding expires, the subnet prefix applied to client addresses,
 * and a bound on the number of bindings.
 *
 * @param group a sticky group: every virtual server naming the same group shares one table, and a
 *              binding made by one of them sends the key, in the others, to the real of their own
 *              farm with the same IP address (IOS "buddied" virtual servers); empty for a table of
 *              the virtual server's own
 */
public record StickyConfig(List<StickyKind> keys, Duration idle, OptionalInt netmaskBits, int maxEntries,
        Optional<String> group) {

    public static final int DEFAULT_MAX_ENTRIES = 1_000_000;

    public StickyConfig {
        keys = List.copyOf(keys);
        group = group == null ? Optional.empty() : group;
    }

    /** A table of the virtual server's own (no group). */
    public StickyConfig(List<StickyKind> keys, Duration idle, OptionalInt netmaskBits, int maxEntries) {
        this(keys, idle, netmaskBits, maxEntries, Optional.empty());
    }
}
