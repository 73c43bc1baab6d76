package io.switchboard.director.gtp;

import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;

/**
 * One {@code gtp-inspect} session (a GTPv1 PDP context, a GTPv2 PDN connection): the real that holds
 * it and the TEIDs of both sides. The requester (SGSN/MME) knows the session by {@link #directorTeid},
 * the real (GGSN/PGW) by {@link #realFacingTeid}; the director writes each side's own TEID into the
 * headers of the messages it passes on. The peers' TEIDs and the requester's address may change
 * (Update PDP Context, Modify Bearer), so they are volatile; the event loops share the session.
 */
final class GtpSession {

    final int version;
    final RealServer real;
    /** Null for a session created without IMSI (emergency attach). */
    final String imsi;
    /**
     * The sticky binding's key text: the IMSI, or {@code IMSI@farm} for a create an APN map sent to
     * another farm than the virtual server's (stickiness is per farm); null without IMSI.
     */
    final String binding;
    /** What the requester sees as the real's TEID-C: the key of the session at the virtual address. */
    final long directorTeid;
    /** What the real sees as the requester's TEID-C; 0 when the Create request had none to replace. */
    final long realFacingTeid;
    /** The real's own TEID-C. */
    volatile long realTeid;
    /** The requester's own TEID-C, written into the headers of the real's requests. */
    volatile long requesterTeid;
    /** Where the real's requests are relayed to (the requester's control-plane address), or null. */
    volatile InetSocketAddress requester;
    volatile long lastSeenNanos;

    GtpSession(int version, RealServer real, String imsi, String binding, long directorTeid, long realFacingTeid, long realTeid,
            long requesterTeid, InetSocketAddress requester, long nowNanos) {
        this.version = version;
        this.real = real;
        this.imsi = imsi;
        this.binding = binding;
        this.directorTeid = directorTeid;
        this.realFacingTeid = realFacingTeid;
        this.realTeid = realTeid;
        this.requesterTeid = requesterTeid;
        this.requester = requester;
        this.lastSeenNanos = nowNanos;
    }

    void touch(long nowNanos) {
        lastSeenNanos = nowNanos;
    }
}
