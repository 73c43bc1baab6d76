package io.switchboard.director.gtp;

import io.switchboard.director.gtp.GtpEndpointRewriter.Endpoint;

/**
 * What {@code gtp-inspect} remembers of a requester's request for its answer (the engine keeps it
 * with the pending transaction).
 *
 * @param create         whether the request creates a tunnel (a primary or secondary create)
 * @param session        the session the request belongs to, null for a primary create
 * @param delete         whether an accepted answer (or "context not found") ends the session
 * @param binding        the subscriber's sticky binding key text (IMSI, or IMSI@farm of an APN map)
 * @param createKey      a primary create's key among the pending creates (real, director sequence,
 *                       requester), else null
 * @param realFacingTeid the real-facing TEID written into a primary create, else 0
 * @param requester      a create's (or an Update's) requester endpoint as it was before the rewrite, or null
 * @param bearer         a primary create's bearer ({@link GtpBearer#of})
 * @param answerCopyFor  where a primary create or a Delete came from, for its answer's copy
 *                       ({@link GtpAnswered}); else null
 */
record GtpRequestContext(boolean create, GtpSession session, boolean delete, String imsi, String binding,
        GtpPendingCreates.Key createKey, long realFacingTeid, Endpoint requester, int bearer,
        java.net.InetSocketAddress answerCopyFor) {
}
