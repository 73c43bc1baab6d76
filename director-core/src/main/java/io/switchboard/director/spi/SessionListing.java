package io.switchboard.director.spi;

import java.util.List;

/**
 * A plug-in that keeps sessions (GTP sessions by TEID in {@code gtp-inspect}) and can list them, for
 * the admin API's {@code GET /api/v1/sessions}. Called off the packet path; the list is a snapshot.
 */
public interface SessionListing {

    /**
     * One open session.
     *
     * @param id     the session's identity at the director (e.g. the director TEID in hex)
     * @param key    the subscriber it belongs to (e.g. the IMSI), or null when unknown
     * @param farm   the farm of the real that holds it
     * @param real   that real's id, {@code address:port}
     * @param detail protocol-specific detail (e.g. the real's own TEID)
     */
    record Session(String id, String key, String farm, String real, String detail) {
    }

    List<Session> sessions();

    /**
     * Ends the sessions held by {@code real} ({@code address:port}), or every session when it is null, as IOS
     * {@code clear ip slb sessions} does; returns how many ended (each counted by the plug-in as cleared).
     */
    int clear(String real);
}
