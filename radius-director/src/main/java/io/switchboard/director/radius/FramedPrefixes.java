package io.switchboard.director.radius;

import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.predictor.PrefixTable;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.StickyBindings;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Framed-IP table of one virtual server ({@code radius.framed-ip}): the subscriber addresses an
 * AAA server handed out, bound in the sticky table to that server, so that later requests naming the
 * address reach it. Both families: Framed-IP-Address (key {@code framed-ip}), every
 * Framed-IPv6-Prefix (RFC 3162 §2.3: it "can appear multiple times"; {@code framed-ipv6-prefix}) and
 * Delegated-IPv6-Prefix (RFC 4818; {@code delegated-ipv6-prefix}). Learnt from an Access-Accept that
 * carries them and from an acknowledged Accounting-Start or Interim-Update; ended by the acknowledged
 * Accounting-Stop; and, since an Accounting-On/Off says that all of a client's sessions are gone
 * (RFC 2866 §5.1), every binding learnt from that client is ended with it.
 *
 * <p>A request is keyed by these ({@link #keyOf}) when its virtual server's {@code sticky.keys} name
 * them, and routed by the farm's route map ({@link #routed}): by its Framed-IP-Address, else by its
 * Framed-IPv6-Prefix.
 *
 * <p>The keys learnt per client address are remembered for that purge: a set per client, shared by
 * the event loops (concurrent). A key stays in its client's set until its Stop or the purge; one
 * whose binding expired on its own is removed again then, harmlessly.
 */
final class FramedPrefixes {

    private static final StickyKey[] NONE = {};

    private final RadiusOptions.FramedIp options;
    /** Keys learnt per client address, for the purge on Accounting-On/Off. */
    private final ConcurrentHashMap<InetAddress, Set<StickyKey>> byClient = new ConcurrentHashMap<>();

    FramedPrefixes(RadiusOptions.FramedIp options) {
        this.options = options;
    }

    /**
     * The framed keys an Accounting-Request carries, read before it is forwarded (its answer says only
     * whether it was taken); empty for any other request.
     */
    static StickyKey[] ofRequest(RadiusView request) {
        if (request.code() != RadiusCode.ACCOUNTING_REQUEST.value()) {
            return NONE;
        }
        return keys(request);
    }

    /** Every framed key of {@code packet}: its Framed-IP-Address, Framed-IPv6-Prefixes, Delegated-IPv6-Prefixes. */
    static StickyKey[] keys(RadiusView packet) {
        List<StickyKey> keys = null;
        long ip = packet.framedIpAddress();
        if (ip >= 0) {
            keys = new ArrayList<>(2);
            keys.add(framedIpKey(ip));
        }
        for (int a = packet.firstAttribute(); a >= 0; a = packet.nextAttribute(a)) {
            StickyKind kind = prefixKind(packet.attributeType(a));
            byte[] prefix = kind == null ? null : packet.ipv6Prefix(a);
            if (prefix != null) {
                if (keys == null) {
                    keys = new ArrayList<>(2);
                }
                keys.add(StickyKey.of(kind, prefix));
            }
        }
        return keys == null ? NONE : keys.toArray(NONE);
    }

    /** The key kind of an IPv6 prefix attribute type, or null. */
    private static StickyKind prefixKind(int type) {
        return type == RadiusAttributeType.FRAMED_IPV6_PREFIX.value() ? RadiusModule.FRAMED_IPV6_PREFIX
                : type == RadiusAttributeType.DELEGATED_IPV6_PREFIX.value() ? RadiusModule.DELEGATED_IPV6_PREFIX
                : null;
    }

    /**
     * The request's key of {@code kind} if it is a framed kind ({@code framed-ip} from a 4-octet
     * Framed-IP-Address, the prefix kinds from the first well-formed attribute); null otherwise.
     */
    static StickyKey keyOf(RadiusView request, StickyKind kind) {
        if (kind.equals(RadiusModule.FRAMED_IP)) {
            long ip = request.framedIpAddress();
            return ip < 0 ? null : framedIpKey(ip);
        }
        byte[] prefix = kind.equals(RadiusModule.FRAMED_IPV6_PREFIX) ? request.framedIpv6Prefix()
                : kind.equals(RadiusModule.DELEGATED_IPV6_PREFIX) ? request.delegatedIpv6Prefix() : null;
        return prefix == null ? null : StickyKey.of(kind, prefix);
    }

    /** Whether {@code kind} is one of this table's. */
    static boolean isFramed(StickyKind kind) {
        return kind.equals(RadiusModule.FRAMED_IP) || kind.equals(RadiusModule.FRAMED_IPV6_PREFIX)
                || kind.equals(RadiusModule.DELEGATED_IPV6_PREFIX);
    }

    /**
     * The route map's value for the request: the longest prefix holding its Framed-IP-Address, else
     * the longest holding the whole of its Framed-IPv6-Prefix (a prefix shorter than the subscriber's
     * does not hold it); null when neither is present or matches. The delegated prefix does not route:
     * it names the subscriber's own network behind it, not where the NAS put the subscriber.
     */
    static <V> V routed(PrefixTable<V> map, RadiusView request) {
        long ip = request.framedIpAddress();
        if (ip >= 0) {
            V v = map.lookupIpv4(ip);
            if (v != null) {
                return v;
            }
        }
        byte[] prefix = request.framedIpv6Prefix();
        return prefix == null ? null : map.lookupIpv6(prefix, prefix[16] & 0xff);
    }

    static StickyKey framedIpKey(long ip) {
        return StickyKey.of(RadiusModule.FRAMED_IP,
                new byte[] {(byte) (ip >>> 24), (byte) (ip >>> 16), (byte) (ip >>> 8), (byte) ip});
    }

    /** An Access-Accept from {@code real}: its framed keys are bound to it. */
    void accepted(StickyBindings table, RadiusView accept, RealView real, InetAddress client, long now) {
        if (options.learn()) {
            for (StickyKey key : keys(accept)) {
                bind(table, key, real, client, now);
            }
        }
    }

    /**
     * An Accounting-Request of {@code status} carrying {@code keys} (see {@link #ofRequest}) that
     * {@code real} acknowledged.
     */
    void accounted(StickyBindings table, long status, StickyKey[] keys, RealView real, InetAddress client,
            long now) {
        if (status == RadiusAcctStatusType.START || status == RadiusAcctStatusType.INTERIM_UPDATE) {
            if (options.learn()) {
                for (StickyKey key : keys) {
                    bind(table, key, real, client, now);
                }
            }
        } else if (status == RadiusAcctStatusType.STOP) {
            if (options.purgeOnStop()) {
                Set<StickyKey> learned = byClient.get(client);
                for (StickyKey key : keys) {
                    table.remove(key);
                    if (learned != null) {
                        learned.remove(key);
                    }
                }
            }
        } else if (status == RadiusAcctStatusType.ACCOUNTING_ON || status == RadiusAcctStatusType.ACCOUNTING_OFF) {
            if (options.purgeOnAccountingOnOff()) {
                Set<StickyKey> learned = byClient.remove(client);
                if (learned != null) {
                    learned.forEach(table::remove);
                }
            }
        }
    }

    /** Binds {@code key} to {@code real}, moving it there if another real held it (the AAA said so). */
    private void bind(StickyBindings table, StickyKey key, RealView real, InetAddress client, long now) {
        StickyBinding binding = real.binding();
        StickyBinding holding = table.bindIfAbsent(key, binding, now);
        if (!holding.equals(binding)) {
            table.rebind(key, holding, binding, now);
        }
        byClient.computeIfAbsent(client, c -> ConcurrentHashMap.newKeySet()).add(key);
    }
}
