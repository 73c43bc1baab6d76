package io.switchboard.codec;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why a datagram was dropped. Used as the {@code reason} tag of the {@code dropped} counter, so the
 * names are short, lower-case and stable. An open value class: codecs and plug-ins may name reasons
 * of their own with {@link #of(String)}; the codecs' common ones are constants here, the engine's
 * own (no real available, pending table full...) are director-core's {@code EngineDrops}.
 */
public final class DropReason {

    private static final ConcurrentHashMap<String, DropReason> KNOWN = new ConcurrentHashMap<>();

    /** Fewer bytes than a header or a declared length needs. */
    public static final DropReason TRUNCATED = of("truncated");
    /** A length field, version or flag combination that the specification does not allow. */
    public static final DropReason MALFORMED = of("malformed");
    /** Larger than the virtual server accepts. */
    public static final DropReason OVERSIZED = of("oversized");
    /** A protocol version this director does not handle. */
    public static final DropReason UNSUPPORTED_VERSION = of("unsupported-version");
    /** A well-formed message that this service does not direct (e.g. a response sent to the VIP). */
    public static final DropReason UNEXPECTED_MESSAGE = of("unexpected-message");

    private final String name;

    private DropReason(String name) {
        this.name = name;
    }

    /** The reason with this name; the same instance for the same name. */
    public static DropReason of(String name) {
        Objects.requireNonNull(name, "name");
        return KNOWN.computeIfAbsent(name, DropReason::new);
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
