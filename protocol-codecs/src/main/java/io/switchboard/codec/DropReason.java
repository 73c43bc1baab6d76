package io.switchboard.codec;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Why a datagram was dropped. Used as the {@code reason} tag of the {@code dropped} counter, so the
 * names are short, lower-case and stable. An open value class: codecs and plug-ins may name reasons
 * of their own with {@link #of(String)}; the common ones are constants here.
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
    /** The sender is not in the virtual server's client list. */
    public static final DropReason CLIENT_NOT_ALLOWED = of("client-not-allowed");
    /** Neither the primary nor the backup farm had a real that may take new work. */
    public static final DropReason NO_REAL_AVAILABLE = of("no-real-available");
    /** The pending-transaction table was full. */
    public static final DropReason PENDING_FULL = of("pending-full");
    /** The per-flow table (generic UDP) was full. */
    public static final DropReason FLOWS_FULL = of("flows-full");
    /** The virtual server is out of service. */
    public static final DropReason OUT_OF_SERVICE = of("out-of-service");
    /** Sending to the real or back to the client failed at the socket. */
    public static final DropReason SEND_FAILED = of("send-failed");

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
