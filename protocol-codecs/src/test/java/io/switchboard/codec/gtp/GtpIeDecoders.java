package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2Ie;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import io.switchboard.codec.gtp.v2.GtpV2NodeLoad;
import io.switchboard.codec.gtp.v2.GtpV2SenderFteid;
import java.util.Arrays;
import java.util.Optional;

/**
 * The GTP entry points the director calls besides the decoders {@link GtpDecoders} exercises: Echo Response
 * recovery (the echo probe), the sender F-TEID (gtp-inspect's endpoint rewriting), node load and overload control
 * (load feedback), APN and TBCD text. The rule of the {@code gtp-ies} fuzz target ({@link GtpIesFuzzTest}, replayed
 * by {@link GtpIesFuzzFindingsTest}): each returns or throws a DecodeException, the buffer is left as it was, and:
 * the view's sender F-TEID and the model's are the same one (two readings of one rule, TS 29.274 §8.22); an APN
 * that decodes re-encodes to its bytes (TS 23.003 §9.1); an Echo Response's Recovery is an octet (TS 29.060
 * §7.7.11, TS 29.274 §8.5).
 */
final class GtpIeDecoders {

    private GtpIeDecoders() {
    }

    static void exercise(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes.clone());
        try {
            for (int version = 1; version <= 2; version++) {
                int sequence = sequence(buf, version);
                try {
                    int recovery = GtpEcho.responseRecovery(buf, version, sequence);
                    check(recovery >= -1 && recovery <= 255, "a Recovery is an octet: " + recovery);
                } catch (DecodeException e) {
                    // refused
                }
            }
            senderFteid(buf);
            try {
                GtpV2NodeLoad.of(buf, new GtpV2Header().wrap(buf, 0));
            } catch (DecodeException e) {
                // refused
            }
            String apn = GtpApn.decode(bytes);
            if (apn != null) {
                check(Arrays.equals(GtpApn.encode(apn), bytes), "the APN " + apn + " re-encodes to its bytes");
            }
            String digits = GtpTbcd.decode(bytes, 0, bytes.length);
            check(digits.length() <= 2 * bytes.length, "TBCD: two digits an octet at most");
            check(Arrays.equals(buf.array(), bytes) && buf.readerIndex() == 0, "the buffer is left as it was");
        } finally {
            buf.release();
        }
    }

    /** The header's sequence number, so that the echo reading gets past the sequence test; 0 if none. */
    private static int sequence(ByteBuf buf, int version) {
        try {
            return version == 1 ? new GtpV1Header().wrap(buf, 0).sequence() : new GtpV2Header().wrap(buf, 0).sequence();
        } catch (DecodeException | RuntimeException e) {
            return 0;
        }
    }

    private static void senderFteid(ByteBuf buf) {
        GtpV2Header header;
        int sender;
        try {
            header = new GtpV2Header().wrap(buf, 0);
            sender = GtpV2SenderFteid.locate(buf, header);
            GtpV2SenderFteid.twin(buf, header, sender);
        } catch (DecodeException e) {
            return;
        }
        if (!header.messageType().isKnown()) {
            // The model keeps an unknown message's body opaque, no IEs: such a message is discarded (TS 29.274
            // §7.7.4), so what the view would read in it is nobody's sender (the fuzzer's second input of 2026-12-02).
            return;
        }
        GtpV2Message message;
        try {
            message = GtpV2Codec.decode(buf.duplicate());
        } catch (DecodeException e) {
            return; // the view reads only what it needs; the model refuses what is malformed anywhere
        }
        Optional<GtpV2Ie.Fteid> model = GtpV2SenderFteid.of(message);
        check(model.isPresent() == (sender >= 0), "view and model agree on whether there is a sender F-TEID");
        if (sender >= 0) {
            check(model.get().teid() == buf.getUnsignedInt(sender + 5), "view and model agree on the sender's TEID");
        }
    }

    private static void check(boolean rule, String what) {
        if (!rule) {
            throw new AssertionError(what);
        }
    }
}
