package io.switchboard.director.radius;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAcctStatusType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusVendorAttributes;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.sticky.StickyKey;

/**
 * {@code vsa-correlation}: a vendor-specific attribute the NAS sends in the Access-Request (a
 * charging id, say) is held for the subscriber and added to the Accounting-Start that lacks it, so
 * that the accounting real gets what the authentication real saw. Counts the Starts it could not
 * complete, by reason.
 */
final class RadiusVsaCorrelation {

    private final RadiusOptions.VsaCorrelation vsa;
    private final HeldValues<StickyKey> store;
    private final Counter tooLong;
    private final Counter bufferCannotGrow;

    RadiusVsaCorrelation(RadiusOptions.VsaCorrelation vsa, HeldValues<StickyKey> store, MeterRegistry registry,
            String vserver) {
        this.vsa = vsa;
        this.store = store;
        this.tooLong = notAdded(registry, vserver, "too-long");
        this.bufferCannotGrow = notAdded(registry, vserver, "buffer-cannot-grow");
    }

    private static Counter notAdded(MeterRegistry registry, String vserver, String reason) {
        return RadiusMeters.VSA_NOT_ADDED.counter().tag("vserver", vserver).tag("reason", reason).register(registry);
    }

    /** The VSAs held, for tests. */
    HeldValues<StickyKey> store() {
        return store;
    }

    /** Accounting-Starts forwarded without the VSA because their buffer could not grow, for tests. */
    double notAddedForFixedBuffer() {
        return bufferCannotGrow.count();
    }

    /**
     * VSA correlation on a request: remembers the VSA of an Access-Request; adds the remembered one
     * to an Accounting-Start that lacks it (the packet grows: the buffer's writer index moves).
     *
     * @return the view of the request as it is now
     */
    RadiusView correlate(ByteBuf request, RadiusView view, int code, StickyKey key) throws DecodeException {
        int present = view.findVendor(vsa.vendorId(), vsa.vendorType());
        if (code == RadiusCode.ACCESS_REQUEST.value()) {
            if (present >= 0) {
                store.put(key, subValue(view, present), vsa.hold().toNanos());
            }
            return view;
        }
        if (code != RadiusCode.ACCOUNTING_REQUEST.value() || present >= 0
                || view.acctStatusType() != RadiusAcctStatusType.START) {
            return view;
        }
        byte[] value = store.get(key);
        if (value == null) {
            return view;
        }
        ByteBuf copy = Unpooled.buffer(view.length() + RadiusView.VSA_HEADER_LENGTH + 2 + value.length);
        try {
            int length;
            try {
                length = RadiusVendorAttributes.put(view, vsa.vendorId(), vsa.vendorType(),
                        value, copy);
            } catch (IllegalArgumentException e) {
                tooLong.increment();
                return view; // it would not fit in 4096 octets: forward without it
            }
            int base = request.readerIndex();
            if (base + length > request.maxCapacity()) {
                // A buffer that cannot grow (recvmmsg hands each datagram over as a slice exactly as long
                // as the datagram; the engine copies requests for lengthensRequests(), so this is a
                // caller that did not): forwarded without, and counted.
                bufferCannotGrow.increment();
                return view;
            }
            if (request.capacity() < base + length) {
                request.capacity(base + length);
            }
            request.setBytes(base, copy, 0, length);
            request.writerIndex(base + length);
            return RadiusView.wrap(request);
        } finally {
            copy.release();
        }
    }

    /** An Access-Accept that carries the VSA holds it for the subscriber (the real's, over the NAS's). */
    void learn(RadiusView accept, StickyKey key) {
        int sub = accept.findVendor(vsa.vendorId(), vsa.vendorType());
        if (sub >= 0) {
            store.put(key, subValue(accept, sub), vsa.hold().toNanos());
        }
    }

    private static byte[] subValue(RadiusView view, int sub) {
        byte[] value = new byte[view.attributeLength(sub) - 2];
        view.buffer().getBytes(view.base() + sub + 2, value);
        return value;
    }

}
