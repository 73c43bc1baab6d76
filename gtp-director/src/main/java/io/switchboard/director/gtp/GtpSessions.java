package io.switchboard.director.gtp;

import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.SessionListing;
import io.switchboard.director.spi.StickyBindings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * {@code gtp-inspect}'s session table and the life of a session in it: opened by an accepted create,
 * refreshed while used, ended by a Delete, idleness ({@code session-idle}) or a restart of its real;
 * and the accounting that follows each session: open sessions per real ({@link GtpSessionCounts})
 * and per subscriber (its sticky binding ends with the last one).
 *
 * <p>Sessions are kept in a {@link SharedTable} per virtual server ({@code PluginContext.tables()}):
 * a concurrent map on a single node, shared by the nodes of a cluster, so that any node finds a
 * session by its TEID (read locally) after the node that created it is gone. A session is written
 * when it is created, when an Update changes its TEIDs or requester, and at most once every
 * {@code session-idle / 8} while it is used (its refresh time, the base of the cluster-wide idle
 * expiry), never per message.
 */
final class GtpSessions {

    /** A request with a TEID (TID) that names no session of this virtual server. */
    static final DropReason UNKNOWN_SESSION = DropReason.of("gtp-unknown-session");

    private final GtpOptions options;
    /** How long a session lives without a message, in cluster-clock milliseconds. */
    private final long sessionIdleMillis;
    /**
     * A session used more than this long after its last write is written again (refreshed). Its
     * refresh time thus lags its last message by less than this, and a session ends when it is older
     * than {@code session-idle} plus this: never before session-idle after its last message, on any node.
     */
    private final long refreshMillis;
    /**
     * How often idle sessions are looked for: every second, or every {@code session-idle / 64} when
     * that is longer, so that a session ends at most that much after its idle time and slack.
     */
    private final long sweepNanos;
    /** Written by the thread that runs the second's housekeeping only. */
    private volatile long nextSweepNanos = Long.MIN_VALUE;
    /**
     * When the next cluster recount is due. A recount is a pass over every session of the cluster
     * (100,000 sessions took most of a core each second on the sweeper's thread, beside the event
     * loops: the GTP benchmark's cluster member forwarded at 0.19x the node alone), so it runs at
     * most 1/{@link #RECOUNT_DUTY} of the time: the next one waits twenty times as long as the last
     * took, and at least a second.
     */
    private volatile long nextRecountNanos = Long.MIN_VALUE;
    /** A recount runs at most 1/RECOUNT_DUTY of the time (5 %). */
    static final int RECOUNT_DUTY = 20;
    /** v1/v2 sessions by director TEID (odd; the real-facing TEID is the even one below it). */
    private volatile SharedTable<Long, GtpSession> sessions = SharedTables.IN_MEMORY.open("sessions", null, null);
    /** GTPv0 sessions by TID. */
    private volatile SharedTable<Long, GtpSession> v0Sessions = SharedTables.IN_MEMORY.open("v0-sessions", null, null);
    /** The cluster clock: epoch nanoseconds minus the ticker's, taken once at attach. */
    private volatile long clusterClockOffsetNanos = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
    /** Open sessions per IMSI (its binding ends with the last) and the session of each of its bearers. */
    private final GtpSubscribers subscribers = new GtpSubscribers();
    private final GtpSessionCounts perReal;
    private final GtpInspectMetrics metrics;
    private volatile StickyBindings sticky;
    /** The v1/v2 table held sessions when attached: pairs this run did not allocate are in use. */
    private volatile boolean heldSessionsAtAttach;

    GtpSessions(GtpOptions options, GtpInspectMetrics metrics) {
        this.options = options;
        this.metrics = metrics;
        this.perReal = new GtpSessionCounts(metrics);
        this.sessionIdleMillis = options.sessionIdle().toMillis();
        this.refreshMillis = Math.max(1, sessionIdleMillis / 8);
        this.sweepNanos = Math.max(1_000_000_000L, options.sessionIdle().toNanos() / 64);
    }

    void attach(PluginContext context) {
        this.sticky = context.sticky();
        perReal.attach(context.reals(), context.farms());
        this.clusterClockOffsetNanos = System.currentTimeMillis() * 1_000_000L - context.ticker().nanos();
        GtpSessionCodec codec = new GtpSessionCodec(context.farms());
        String name = context.config().name();
        this.sessions = context.tables().open("gtp-inspect/sessions/" + name, GtpSessionCodec.TEID, codec);
        this.v0Sessions = context.tables().open("gtp-inspect/v0-sessions/" + name, GtpSessionCodec.TID, codec);
        recount(); // the sessions other nodes hold already count
        this.heldSessionsAtAttach = sessions.size() > 0;
    }

    /** The cluster clock in epoch milliseconds at ticker time {@code nowNanos}. */
    long clusterMillis(long nowNanos) {
        return (nowNanos + clusterClockOffsetNanos) / 1_000_000L;
    }

    /** The v1/v2 session of a director TEID, or null. */
    GtpSession byTeid(long directorTeid) {
        return sessions.get(directorTeid);
    }

    /** The v0 session of a TID, or null. */
    GtpSession byTid(long tid) {
        return v0Sessions.get(tid);
    }

    /**
     * The session a requester's request names: by TEID (v1/v2; the director TEID the requester
     * knows), by TID (v0).
     *
     * @throws DecodeException {@link #UNKNOWN_SESSION} when there is none
     */
    GtpSession of(GtpMessageView view) throws DecodeException {
        GtpSession session;
        long id;
        if (view.version() == 0) {
            id = view.v0().tid();
            session = byTid(id);
        } else {
            id = view.teid();
            session = id > 0 ? byTeid(id) : null;
        }
        if (session == null) {
            throw new DecodeException(UNKNOWN_SESSION, "GTPv" + view.version() + " request type "
                    + view.messageTypeValue() + " for TEID/TID " + Long.toUnsignedString(id) + ", which is no session here");
        }
        return session;
    }

    /** The session as the table holds it now (an Update may have changed it since it was read), or null. */
    GtpSession current(GtpSession session) {
        return table(session).get(session.directorTeid());
    }

    /** Whether other nodes write into these tables too (a cluster). */
    boolean sharedWithOtherNodes() {
        return sessions.sharedWithOtherNodes() || v0Sessions.sharedWithOtherNodes();
    }

    /**
     * Whether a director TEID this run of the node has not handed out may be a session's: other
     * nodes write the tables, or they held sessions already when attached (a lone node's snapshot,
     * read back at start), so the TEID space must look a pair up before it hands it out.
     */
    boolean teidsHeldElsewhere() {
        return heldSessionsAtAttach || sharedWithOtherNodes();
    }

    private SharedTable<Long, GtpSession> table(GtpSession session) {
        return session.version() == 0 ? v0Sessions : sessions;
    }

    /**
     * A message of the session was seen: it is written again (to every node) only when its refresh
     * time is older than {@link #refreshMillis}, from the table's current value.
     */
    void touch(GtpSession session, long nowNanos) {
        long millis = clusterMillis(nowNanos);
        if (millis - session.refreshedMillis() < refreshMillis) {
            return;
        }
        SharedTable<Long, GtpSession> table = table(session);
        GtpSession current = table.get(session.directorTeid());
        if (current != null && millis - current.refreshedMillis() >= refreshMillis) {
            table.put(current.directorTeid(), current.refreshed(millis));
        }
    }

    /** Writes a session that changed (new TEIDs, a new requester), refreshed at {@code nowNanos}. */
    void update(GtpSession changed, long nowNanos) {
        table(changed).put(changed.directorTeid(), changed.refreshed(clusterMillis(nowNanos)));
    }

    /**
     * A new session (a create accepted, an indirect forwarding context opened): put into the table
     * and counted. A create for a bearer that has a session already replaces it (TS 29.274 §7.2.1,
     * TS 29.060 §7.3.1; see {@link GtpBearer}): the real deleted the old context when it accepted the
     * new one; counted before the old one ends, so that the IMSI's binding stays throughout. GTPv0:
     * the same TID created again means the requester lost the old context.
     */
    void open(GtpSession session) {
        GtpSession replacedV0 = null;
        if (session.version() == 0) {
            replacedV0 = v0Sessions.get(session.directorTeid());
            v0Sessions.put(session.directorTeid(), session);
        } else {
            sessions.put(session.directorTeid(), session);
        }
        perReal.opened(session.real());
        long previous = subscribers.opened(session);
        if (replacedV0 != null) {
            closed(replacedV0, false);
        } else if (previous != GtpSubscribers.NONE) {
            // Looked up in this node's index of the sessions it learnt or (in a cluster) read at the
            // last recount: a replacement that reaches another node before the original's session
            // reached this one ends with its idle time instead.
            GtpSession old = sessions.get(previous);
            if (old != null && GtpSubscribers.sameBearer(session, old) && end(old, false)) {
                metrics.sessionReplaced();
            }
        }
    }

    /** A session ended (Delete, idleness, restart of its real): gone from the table, on every node. */
    boolean end(GtpSession session) {
        return end(session, true);
    }

    /** @param unstick whether the subscriber's binding may end with it (not when a create replaced it) */
    private boolean end(GtpSession session, boolean unstick) {
        if (table(session).remove(session.directorTeid())) {
            closed(session, unstick);
            return true;
        }
        return false;
    }

    private void closed(GtpSession session, boolean unstick) {
        perReal.closed(session.real());
        // The IMSI's last session (in a farm) ended: its binding ends too (unless configured otherwise).
        // Never with a session a create replaced: the subscriber holds the new one, whatever this node's
        // count says. In a cluster the count is a recount of the shared table on the sweeper's thread,
        // which can miss a create racing it; trusting it there moved a live subscriber's binding.
        StickyBindings table = sticky;
        if (subscribers.closed(session) && unstick && options.unstickOnDelete() && table != null) {
            table.remove(GtpPlugin.imsiKey(session.binding()));
        }
    }

    /**
     * The real restarted and lost its sessions: they end here too, and so on every node (whichever
     * node notices first removes them from the shared table).
     */
    void purge(RealView real) {
        for (GtpSession session : all()) {
            if (session.real() == real && end(session)) {
                metrics.sessionPurged();
            }
        }
    }

    /**
     * An operator ended the sessions held by the real {@code realId} ({@code address:port}), or every session
     * when it is null (IOS {@code clear ip slb sessions}): they end as a purge ends them, on every node.
     */
    int clear(String realId) {
        int cleared = 0;
        for (GtpSession session : all()) {
            if ((realId == null || realId.equals(session.real().id())) && end(session)) {
                metrics.sessionCleared();
                cleared++;
            }
        }
        return cleared;
    }

    /**
     * Once a second (in a cluster on the plug-in's {@link GtpSweeper}: a pass over the cluster's
     * sessions is no event loop's work): ends the sessions idle for longer than {@code session-idle}
     * plus the refresh slack, every {@link #sweepNanos} (a pass over every session, which a node
     * holding a million would otherwise make every second for sessions that idle for a day); in a
     * cluster, recounts (once a second, or less often when a recount is long: {@link #nextRecountNanos}).
     */
    void housekeep(long now) {
        long due = nextSweepNanos;
        if (due == Long.MIN_VALUE || now - due >= 0) {
            nextSweepNanos = now + sweepNanos;
            long oldest = clusterMillis(now) - sessionIdleMillis - refreshMillis;
            // Straight over the tables (a concurrent map's iteration tolerates the removals): no list
            // of every session per sweep.
            BiConsumer<Long, GtpSession> expire = (key, session) -> {
                if (session.refreshedMillis() < oldest && end(session)) {
                    metrics.sessionExpired();
                }
            };
            sessions.forEach(expire);
            v0Sessions.forEach(expire);
        }
        // Alone, every session was counted as it opened and ended here: nothing to recount (a pass
        // that would hash every session and IMSI each second).
        long recountDue = nextRecountNanos;
        if (sharedWithOtherNodes() && (recountDue == Long.MIN_VALUE || now - recountDue >= 0)) {
            long started = System.nanoTime(); // the pass's own cost, whatever the engine's clock says
            recount();
            nextRecountNanos = now + Math.max(1_000_000_000L, RECOUNT_DUTY * (System.nanoTime() - started));
        }
    }

    /**
     * Sets the open-session counts (per real: its connections for {@code leastconns}, and the gauge;
     * per IMSI: when its binding ends) to what this node's copy of the table holds: every node's
     * sessions, so in a cluster each node counts the whole cluster's sessions per real. Between two
     * recounts, the sessions this node opens and ends count at once; those of other nodes at the next.
     */
    private void recount() {
        List<GtpSession> all = all();
        perReal.recount(all);
        subscribers.recount(all);
    }

    private List<GtpSession> all() {
        List<GtpSession> all = new ArrayList<>();
        sessions.forEach((k, s) -> all.add(s));
        v0Sessions.forEach((k, s) -> all.add(s));
        return all;
    }

    /** Open sessions held by {@code real}. */
    int openSessions(RealView real) {
        return perReal.of(real);
    }

    /** Subscribers with an open session, for tests. */
    int subscribers() {
        return subscribers.size();
    }

    /** The open sessions by director TEID (v1/v2) or TID (v0), for tests. */
    Map<Long, GtpSession> snapshot() {
        Map<Long, GtpSession> all = new HashMap<>();
        sessions.forEach(all::put);
        v0Sessions.forEach(all::put);
        return Collections.unmodifiableMap(all);
    }

    /** The sessions as the admin API lists them. */
    List<SessionListing.Session> listing() {
        List<SessionListing.Session> list = new ArrayList<>();
        sessions.forEach((teid, s) -> list.add(new SessionListing.Session(String.format("0x%08x", teid), s.imsi(),
                s.real().farm(), s.real().id(), String.format("real TEID-C 0x%08x", s.realTeid())
                        + (s.requester() == null ? ""
                        : String.format(", requester TEID-C 0x%08x at %s", s.requesterTeid(), s.requester())))));
        v0Sessions.forEach((tid, s) -> list.add(new SessionListing.Session(String.format("tid 0x%016x", tid), s.imsi(),
                s.real().farm(), s.real().id(), "GTPv0")));
        return list;
    }
}
