package io.switchboard.director.radius;

import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.Ticker;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.spi.FarmViews;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The NAS of each accounting session, for Dynamic Authorization (RFC 5176): learnt by a
 * {@code radius} virtual server from each Accounting-Start and Interim-Update, forgotten on its Stop,
 * read by a {@code radius-dae} virtual server to route a CoA- or Disconnect-Request to the NAS that
 * holds the session. Cluster-shared ({@link HeldValues}), so that the AAA may send to any node.
 *
 * <p>Data structure: one held table of index entries, each keyed by one session-identification
 * attribute (type octet, then the value: Acct-Session-Id, Framed-IP-Address, Calling-Station-Id,
 * User-Name) and holding the whole session: the NAS's source address, then the session's
 * identification attributes in RADIUS form (type, length, value; RFC 2865 §5). A session is thus
 * found by whichever of those the DAE request carries, and the rest of what it carries checked
 * against it. The last Start for a value wins; an Interim-Update holds the session again; a session
 * whose Stop was lost lapses after the hold.
 */
final class DaeSessions {

    /** Looked up in this order: the most specific first (RFC 5176 §3: session identification). */
    static final int[] INDEXED = {RadiusAttributeType.ACCT_SESSION_ID.value(), RadiusAttributeType.FRAMED_IP_ADDRESS.value(),
            RadiusAttributeType.CALLING_STATION_ID.value(), RadiusAttributeType.USER_NAME.value()};
    /** Kept with a session and compared with a DAE request's: the indexed ones and the NAS's identification. */
    static final int[] IDENTIFYING = {RadiusAttributeType.ACCT_SESSION_ID.value(),
            RadiusAttributeType.FRAMED_IP_ADDRESS.value(), RadiusAttributeType.CALLING_STATION_ID.value(),
            RadiusAttributeType.USER_NAME.value(), RadiusAttributeType.NAS_IP_ADDRESS.value(),
            RadiusAttributeType.NAS_IDENTIFIER.value()};

    /** A learnt session: where its Accounting-Requests came from, and what identifies it. */
    record Session(InetAddress nas, byte[] attributes) {

        /** The value of attribute {@code type}, or null. */
        byte[] value(int type) {
            for (int i = 0; i + 1 < attributes.length; i += attributes[i + 1] & 0xff) {
                if ((attributes[i] & 0xff) == type) {
                    return Arrays.copyOfRange(attributes, i + 2, i + (attributes[i + 1] & 0xff));
                }
            }
            return null;
        }
    }

    /** Per director (its farms, one per node), the sessions of each group. */
    private static final Map<FarmViews, Map<String, DaeSessions>> BY_DIRECTOR =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final HeldValues<ByteBuffer> sessions;

    private DaeSessions(HeldValues<ByteBuffer> sessions) {
        this.sessions = sessions;
    }

    /**
     * The sessions of {@code group}, opened (or joined, in a cluster) by the first virtual server of
     * this director that asks: the {@code radius} ones that learn and the {@code radius-dae} ones that
     * route share one table on a node, found through the farms every virtual server of a director is
     * attached with (as {@link VsaStore} finds its store through the group's sticky table). Blocks
     * while the table catches up: attach only.
     */
    static DaeSessions of(FarmViews director, SharedTables tables, String group, Ticker ticker) {
        Map<String, DaeSessions> groups = BY_DIRECTOR.computeIfAbsent(director, d -> new ConcurrentHashMap<>());
        return groups.computeIfAbsent(group, g -> new DaeSessions(
                HeldValues.open(tables, "radius/dae-sessions/" + g, HeldValues.OCTETS, ticker)));
    }

    /**
     * What an admitted request teaches: an Accounting-Start or Interim-Update holds its session for
     * {@code holdNanos}, a Stop forgets it (the entries that still name this session). Other requests
     * teach nothing.
     */
    void learn(RadiusView request, InetAddress nas, long holdNanos) {
        if (request.code() != RadiusCode.ACCOUNTING_REQUEST.value()) {
            return;
        }
        long status = request.acctStatusType();
        if (status != RadiusAcctStatusType.START && status != RadiusAcctStatusType.INTERIM_UPDATE
                && status != RadiusAcctStatusType.STOP) {
            return;
        }
        Session session = new Session(nas, identifying(request));
        byte[] encoded = encode(session);
        for (int type : INDEXED) {
            byte[] value = session.value(type);
            if (value == null || value.length == 0) {
                continue;
            }
            ByteBuffer key = key(type, value);
            if (status == RadiusAcctStatusType.STOP) {
                Session held = decode(sessions.get(key));
                if (held != null && sameSession(held, session)) {
                    sessions.remove(key);
                }
            } else {
                sessions.put(key, encoded, holdNanos);
            }
        }
    }

    /**
     * The session a DAE request identifies: found by the first indexed attribute it carries, and
     * matching every identifying attribute both carry; null when none does (RFC 5176 §3.6: Session
     * Context Not Found).
     */
    Session find(RadiusView request) {
        for (int type : INDEXED) {
            int a = request.find(type);
            if (a >= 0 && request.valueLength(a) > 0) {
                Session held = decode(sessions.get(key(type, request.value(a))));
                return held != null && matches(held, request) ? held : null;
            }
        }
        return null;
    }

    /** Index entries in this node's copy (lapsed ones not yet swept included), for tests. */
    long entries() {
        return sessions.size();
    }

    private static boolean matches(Session session, RadiusView request) {
        for (int type : IDENTIFYING) {
            int a = request.find(type);
            byte[] held = session.value(type);
            if (a >= 0 && held != null && !Arrays.equals(held, request.value(a))) {
                return false;
            }
        }
        return true;
    }

    /** A Stop ends the session its Start began: same NAS, same Acct-Session-Id (or both without). */
    private static boolean sameSession(Session held, Session stop) {
        return held.nas().equals(stop.nas()) && Arrays.equals(held.value(RadiusAttributeType.ACCT_SESSION_ID.value()),
                stop.value(RadiusAttributeType.ACCT_SESSION_ID.value()));
    }

    private static byte[] identifying(RadiusView request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int type : IDENTIFYING) {
            int a = request.find(type);
            if (a >= 0) {
                byte[] value = request.value(a);
                out.write(type);
                out.write(value.length + 2);
                out.writeBytes(value);
            }
        }
        return out.toByteArray();
    }

    private static ByteBuffer key(int type, byte[] value) {
        return ByteBuffer.allocate(1 + value.length).put((byte) type).put(value).flip();
    }

    /** A session between nodes: address length (1), the NAS's address, the attributes (a wire constant). */
    static byte[] encode(Session session) {
        byte[] address = session.nas().getAddress();
        return ByteBuffer.allocate(1 + address.length + session.attributes().length).put((byte) address.length)
                .put(address).put(session.attributes()).array();
    }

    /** Null for null, and for what this node cannot read (written by a node that encodes otherwise). */
    static Session decode(byte[] bytes) {
        if (bytes == null || bytes.length < 1 || bytes.length < 1 + (bytes[0] & 0xff)) {
            return null;
        }
        int length = bytes[0] & 0xff;
        try {
            InetAddress nas = InetAddress.getByAddress(Arrays.copyOfRange(bytes, 1, 1 + length));
            return new Session(nas, Arrays.copyOfRange(bytes, 1 + length, bytes.length));
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
