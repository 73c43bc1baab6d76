package io.switchboard.app.reload;

/**
 * One difference between the running configuration and a new one.
 *
 * @param path     where, as the configuration file names it: {@code farms.ggsn.predictor},
 *                 {@code virtual-servers.gtp-c.listen}; a real is named by its address and port,
 *                 {@code farms.ggsn.reals[10.0.0.3:2123].weight}, because its index moves when
 *                 another real is added or removed
 * @param oldValue the running value (an Integer, Boolean or String), null when added or not shown
 * @param newValue the new value, null when removed or not shown (secrets, service options)
 */
public record ConfigChange(String path, Kind kind, Object oldValue, Object newValue) {

    /** Whether the path is new, gone, or has another value. */
    public enum Kind {
        ADDED, REMOVED, CHANGED;

        /** {@code added}, {@code removed}, {@code changed}: the keys of the API's answer. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** {@code changed farms.ggsn.reals[10.0.0.3:2123].weight: 8 -> 4}, the form logged and printed. */
    @Override
    public String toString() {
        return switch (kind) {
            case ADDED -> "added " + path + (newValue == null ? "" : ": " + newValue);
            case REMOVED -> "removed " + path + (oldValue == null ? "" : ": " + oldValue);
            case CHANGED -> "changed " + path + (oldValue == null && newValue == null ? ""
                    : ": " + oldValue + " -> " + newValue);
        };
    }
}
