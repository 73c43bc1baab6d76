package io.switchboard.director.radius;

import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.StickyBindings;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Framed-IP table of one virtual server ({@code radius.framed-ip}): the subscriber addresses an
 * AAA server handed out, bound in the sticky table to that server, so that later requests naming the
 * address reach it. Learnt from an Access-Accept that carries them and from an acknowledged
 * Accounting-Start or Interim-Update; ended by the acknowledged Accounting-Stop; and, since an
 * Accounting-On/Off says that all of a client's sessions are gone (RFC 2866 §5.1), every binding
 * learnt from that client is ended with it.
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

    /** Every framed key of {@code packet}. */
    static StickyKey[] keys(RadiusView packet) {
        long ip = packet.framedIpAddress();
        return ip < 0 ? NONE : new StickyKey[] {framedIpKey(ip)};
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
