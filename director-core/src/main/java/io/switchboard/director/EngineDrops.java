package io.switchboard.director;

import io.switchboard.codec.DropReason;

/**
 * The engine's own reasons for dropping a datagram, beside the codecs' (a decode failure, {@link
 * DropReason#TRUNCATED} and its kind, is a codec's; that no real could take a request is the
 * engine's). Tags of the same {@code dropped} counter.
 */
public final class EngineDrops {

    /** The sender is not in the virtual server's client list. */
    public static final DropReason CLIENT_NOT_ALLOWED = DropReason.of("client-not-allowed");
    /** Neither the primary nor the backup farm had a real that may take new work. */
    public static final DropReason NO_REAL_AVAILABLE = DropReason.of("no-real-available");
    /** The pending-transaction table was full. */
    public static final DropReason PENDING_FULL = DropReason.of("pending-full");
    /** The per-flow table (generic UDP) was full. */
    public static final DropReason FLOWS_FULL = DropReason.of("flows-full");
    /** The virtual server is out of service. */
    public static final DropReason OUT_OF_SERVICE = DropReason.of("out-of-service");
    /** A new request or flow while the node shuts down (what is in flight goes on). */
    public static final DropReason SHUTTING_DOWN = DropReason.of("shutting-down");
    /** A new request or flow to a virtual server a reload removed (what is in flight goes on). */
    public static final DropReason REMOVED = DropReason.of("removed");
    /**
     * An answer that matches no request relayed through the director: a peer's answer to no request
     * of a real, a real's failure indication for no outstanding triggering request.
     */
    public static final DropReason NO_RELAYED_REQUEST = DropReason.of("no-relayed-request");
    /**
     * Refused or shed by the virtual server's {@code overload} limits and not answered (a RADIUS
     * request, RFC 2865 §2; any session work); {@code switchboard_overload_refused_total} says which limit.
     */
    public static final DropReason OVERLOAD = DropReason.of("overload");
    /**
     * Sent to the virtual address through an interface not in its {@code access} list (IOS interface
     * awareness): received by the catch-all socket of {@code AccessSockets} and not served.
     */
    public static final DropReason NOT_ACCESS_INTERFACE = DropReason.of("not-access-interface");
    /** Sending to the real or back to the client failed at the socket. */
    public static final DropReason SEND_FAILED = DropReason.of("send-failed");

    private EngineDrops() {
    }
}
