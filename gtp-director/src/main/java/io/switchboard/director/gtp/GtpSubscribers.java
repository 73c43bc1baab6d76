package io.switchboard.director.gtp;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@code gtp-inspect} keeps per subscriber (a sticky binding's key text: the IMSI, or
 * {@code IMSI@farm}): how many sessions it has open, so that its binding ends with the last one, and
 * the session of each of its bearers ({@link GtpBearer}), so that a create for a bearer that has a
 * session replaces it. One entry per subscriber, found once per create or end: a create is the
 * director's busiest path, and every table of a million entries it touches costs cache misses.
 */
final class GtpSubscribers {

    /** No session to replace. */
    static final long NONE = -1;

    /** Guarded by the map's lock on its entry (changed only inside {@code compute}). */
    private static final class Subscriber {
        int sessions;
        /** (version << 16 | bearer, director TEID) pairs; a subscriber has a few bearers at most. */
        long[] bearers = new long[0];

        long put(long key, long teid) {
            for (int i = 0; i < bearers.length; i += 2) {
                if (bearers[i] == key) {
                    long previous = bearers[i + 1];
                    bearers[i + 1] = teid;
                    return previous;
                }
            }
            bearers = Arrays.copyOf(bearers, bearers.length + 2);
            bearers[bearers.length - 2] = key;
            bearers[bearers.length - 1] = teid;
            return NONE;
        }

        void remove(long key, long teid) {
            for (int i = 0; i < bearers.length; i += 2) {
                if (bearers[i] == key && bearers[i + 1] == teid) {
                    long[] fewer = new long[bearers.length - 2];
                    System.arraycopy(bearers, 0, fewer, 0, i);
                    System.arraycopy(bearers, i + 2, fewer, i, bearers.length - i - 2);
                    bearers = fewer;
                    return;
                }
            }
        }
    }

    private final Map<String, Subscriber> byBinding = new ConcurrentHashMap<>();

    private static long key(GtpSession session) {
        return (long) session.version() << 16 | session.bearer();
    }

    private static boolean hasBearer(GtpSession session) {
        // v0: the TID is the bearer; an indirect forwarding context replaces no bearer's session
        return session.bearer() != GtpBearer.NONE && session.bearer() != GtpBearer.INDIRECT_FORWARDING
                && session.version() != 0;
    }

    /**
     * A session opened: counted for its subscriber. Returns the director TEID of the subscriber's
     * session for the same bearer that this one replaces, or {@link #NONE}.
     */
    long opened(GtpSession session) {
        if (session.binding() == null) {
            return NONE;
        }
        long[] replaced = {NONE};
        byBinding.compute(session.binding(), (binding, subscriber) -> {
            Subscriber s = subscriber == null ? new Subscriber() : subscriber;
            s.sessions++;
            if (hasBearer(session)) {
                long previous = s.put(key(session), session.directorTeid());
                replaced[0] = previous == session.directorTeid() ? NONE : previous;
            }
            return s;
        });
        return replaced[0];
    }

    /** Whether {@code old}, the session {@link #opened} named, is the same subscriber's same bearer. */
    static boolean sameBearer(GtpSession session, GtpSession old) {
        return old.version() == session.version() && old.bearer() == session.bearer()
                && session.binding().equals(old.binding());
    }

    /** A session ended. Returns whether it was its subscriber's last. */
    boolean closed(GtpSession session) {
        if (session.binding() == null) {
            return false;
        }
        boolean[] last = {false};
        byBinding.computeIfPresent(session.binding(), (binding, s) -> {
            if (hasBearer(session)) {
                s.remove(key(session), session.directorTeid()); // unless a replacement holds the bearer already
            }
            last[0] = --s.sessions <= 0;
            return last[0] ? null : s;
        });
        return last[0];
    }

    /**
     * Sets every subscriber to what {@code sessions} hold (a cluster's recount from the shared table,
     * which holds other nodes' sessions too).
     */
    void recount(Iterable<GtpSession> sessions) {
        Map<String, Subscriber> fresh = new HashMap<>();
        for (GtpSession session : sessions) {
            if (session.binding() == null) {
                continue;
            }
            Subscriber s = fresh.computeIfAbsent(session.binding(), b -> new Subscriber());
            s.sessions++;
            if (hasBearer(session)) {
                // Two sessions of one bearer (creates on two nodes at once): the later create's replaces
                // the other when it is seen; until then either is found.
                s.put(key(session), session.directorTeid());
            }
        }
        byBinding.keySet().retainAll(fresh.keySet());
        byBinding.putAll(fresh);
    }

    /** Subscribers with an open session, for tests. */
    int size() {
        return byBinding.size();
    }
}
