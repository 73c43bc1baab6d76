package io.switchboard.director.radius;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.radius.RadiusView;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The response cache of RFC 5080 §2.2.2: "a RADIUS server SHOULD cache the response to a request"
 * and send it again for a duplicate, which is a request from the same source address and port with
 * the same Identifier and Request Authenticator, received within the cache time; a request that
 * reuses the Identifier with another authenticator is a new request. The director relays answers,
 * so it answers a client's retransmission of an answered request itself instead of forwarding it
 * again (a real that then sees it anew would treat it as new after its own cache time, and answer
 * an Accounting-Request twice). A retransmission while the request is still pending is not for this
 * cache: the transaction engine sends that one to the same real.
 *
 * <p>The table is direct-mapped: {@code 2^k} slots, the slot of a request a hash of its four fields,
 * each slot one immutable entry (the four fields, the answer as sent, its deadline). Storing replaces
 * what the slot held, so the memory is bounded by the number of slots times the largest answer
 * (4096 octets, RFC 2865 §3), and a lookup is one array read and four comparisons, without
 * allocation. The price of the bound: under a load above {@code slots / cache time} answers per
 * second an entry may be replaced before its time, and its duplicate then goes to a real, as without
 * a cache. Shared by the virtual server's event loops (an atomic array: no lock).
 */
final class ResponseCache {

    /**
     * One answer and what its request is known by. A lookup compares the fields of the entry alone
     * (one read where the slot holds another request) and the address objects only for a duplicate
     * it is about to answer; {@code addressHash} stands for the address before that ({@link
     * InetAddress#hashCode}: an IPv4 address's own 32 bits in OpenJDK).
     */
    private record Entry(int addressHash, InetAddress address, int port, int identifier, long authenticatorHigh,
            long authenticatorLow, byte[] answer, long deadlineNanos) {
    }

    private final AtomicReferenceArray<Entry> slots;
    private final int mask;
    private final long cacheNanos;
    private final Counter answered;
    private final Counter reused;

    /** A cache of {@code options.maxEntries()} (rounded up to a power of two) answers, or none for 0. */
    ResponseCache(RadiusOptions.Duplicates options, MeterRegistry registry, String vserver) {
        int size = options.maxEntries() == 0 ? 0 : Integer.highestOneBit(Math.max(1, options.maxEntries() * 2 - 1));
        this.slots = size == 0 ? null : new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.cacheNanos = options.cacheTime().toNanos();
        this.answered = RadiusMeters.DUPLICATES.counter().tag("vserver", vserver).tag("outcome", "answered-from-cache")
                .register(registry);
        this.reused = RadiusMeters.DUPLICATES.counter().tag("vserver", vserver).tag("outcome", "identifier-reused")
                .register(registry);
    }

    /**
     * The cached answer to {@code request} (a verified request at its reader index) from
     * {@code client}, in a buffer of {@code alloc} for the caller to send; null when it is no
     * duplicate of an answered request.
     */
    ByteBuf answer(ByteBuf request, InetSocketAddress client, ByteBufAllocator alloc, long now) {
        if (slots == null) {
            return null;
        }
        int base = request.readerIndex();
        int identifier = request.getUnsignedByte(base + 1);
        long high = request.getLong(base + RadiusView.AUTHENTICATOR_OFFSET);
        long low = request.getLong(base + RadiusView.AUTHENTICATOR_OFFSET + 8);
        InetAddress address = client.getAddress();
        int addressHash = address.hashCode();
        int port = client.getPort();
        Entry entry = slots.get(slot(addressHash, port, identifier));
        if (entry == null || entry.deadlineNanos - now <= 0 || entry.port != port || entry.identifier != identifier
                || entry.addressHash != addressHash) {
            return null;
        }
        if (entry.authenticatorHigh != high || entry.authenticatorLow != low) {
            // RFC 5080 §2.2.2: the same Identifier with another authenticator is new. Counted on the
            // address's hash: the count, not the answer, would be off by a collision.
            reused.increment();
            return null;
        }
        if (!entry.address.equals(address)) {
            return null;
        }
        answered.increment();
        return alloc.buffer(entry.answer.length).writeBytes(entry.answer);
    }

    /**
     * Keeps {@code answer} (the whole packet at its reader index, as it goes to the client) for the
     * request {@code identifier} and {@code authenticator} of {@code client}.
     */
    void store(InetAddress address, int port, int identifier, byte[] authenticator, ByteBuf answer, long now) {
        if (slots == null) {
            return;
        }
        long high = longAt(authenticator, 0);
        long low = longAt(authenticator, 8);
        int length = answer.getUnsignedShort(answer.readerIndex() + 2);
        byte[] bytes = new byte[length];
        answer.getBytes(answer.readerIndex(), bytes);
        int addressHash = address.hashCode();
        slots.set(slot(addressHash, port, identifier),
                new Entry(addressHash, address, port, identifier, high, low, bytes, now + cacheNanos));
    }

    /** Answers sent again from the cache (for tests). */
    double answeredFromCache() {
        return answered.count();
    }

    private int slot(int addressHash, int port, int identifier) {
        // Only the address, port and identifier choose the slot: a reused identifier (another
        // authenticator) then finds the entry it replaces, and is counted as such.
        int h = addressHash * 31 + port;
        h = h * 31 + identifier;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h & mask;
    }

    private static long longAt(byte[] bytes, int offset) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value = value << 8 | (bytes[offset + i] & 0xff);
        }
        return value;
    }
}
