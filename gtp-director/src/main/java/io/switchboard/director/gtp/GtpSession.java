package io.switchboard.director.gtp;

import io.switchboard.director.spi.RealView;
import java.net.InetSocketAddress;

/**
 * One {@code gtp-inspect} session (a GTPv1 PDP context, a GTPv2 PDN connection, a GTPv0 context):
 * the real that holds it and the TEIDs of both sides. The requester (SGSN/MME) knows the session by
 * {@link #directorTeid} (v0: the TID), the real (GGSN/PGW) by {@link #realFacingTeid}; the director
 * writes each side's own TEID into the headers of the messages it passes on.
 *
 * <p>Immutable: it is a value of the shared session table ({@link GtpSessionCodec}), which every node
 * of a cluster reads. A change (an Update naming new TEIDs, a refresh of {@link #refreshedMillis}) is
 * a new value put into the table.
 *
 * @param binding         the sticky binding's key text: the IMSI, or {@code IMSI@farm} for a create an
 *                        APN map sent to another farm than the virtual server's (stickiness is per
 *                        farm); null without IMSI
 * @param imsi            null for a session created without IMSI (emergency attach)
 * @param directorTeid    what the requester sees as the real's TEID-C: the session's key at the
 *                        virtual address (v0: the TID)
 * @param realFacingTeid  what the real sees as the requester's TEID-C, {@code directorTeid ^ 1}
 *                        ({@link GtpInspectPlugin} allocates them as a pair); 0 when the Create
 *                        request had none to replace, and then the real's requests are not relayed
 * @param realTeid        the real's own TEID-C
 * @param requesterTeid   the requester's own TEID-C, written into the headers of the real's requests
 * @param requester       where the real's requests are relayed to (the requester's control-plane
 *                        address), or null
 * @param refreshedMillis the cluster clock (epoch milliseconds) when a node last wrote the session
 *                        because it saw a message of it: the base of the cluster-wide idle expiry
 * @param bearer          the bearer its create named, {@link GtpBearer#of}: with the binding and the
 *                        version, what a later create for the same bearer replaces; 0 when unknown
 */
record GtpSession(int version, RealView real, String imsi, String binding, long directorTeid, long realFacingTeid,
        long realTeid, long requesterTeid, InetSocketAddress requester, long refreshedMillis, int bearer) {

    /** A session whose create named no bearer the director could read. */
    GtpSession(int version, RealView real, String imsi, String binding, long directorTeid, long realFacingTeid,
            long realTeid, long requesterTeid, InetSocketAddress requester, long refreshedMillis) {
        this(version, real, imsi, binding, directorTeid, realFacingTeid, realTeid, requesterTeid, requester,
                refreshedMillis, 0);
    }

    GtpSession withRealTeid(long teid) {
        return new GtpSession(version, real, imsi, binding, directorTeid, realFacingTeid, teid, requesterTeid, requester,
                refreshedMillis, bearer);
    }

    GtpSession withRequester(long teid, InetSocketAddress address) {
        return new GtpSession(version, real, imsi, binding, directorTeid, realFacingTeid, realTeid, teid, address,
                refreshedMillis, bearer);
    }

    GtpSession refreshed(long millis) {
        return new GtpSession(version, real, imsi, binding, directorTeid, realFacingTeid, realTeid, requesterTeid,
                requester, millis, bearer);
    }
}
