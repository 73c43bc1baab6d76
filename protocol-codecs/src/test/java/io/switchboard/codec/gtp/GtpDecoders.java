package io.switchboard.codec.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0Header;
import io.switchboard.codec.gtp.v0.GtpV0Message;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1Header;
import io.switchboard.codec.gtp.v1.GtpV1Ies;
import io.switchboard.codec.gtp.v1.GtpV1Message;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Header;
import io.switchboard.codec.gtp.v2.GtpV2Ies;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs every GTP decoding entry point over some bytes, the way the malformed-input tests need: each
 * either succeeds or raises {@link DecodeException}; any other exception escapes and fails the test.
 * Whatever decodes must also re-encode to exactly the bytes it came from.
 */
final class GtpDecoders {

    private GtpDecoders() {
    }

    /** The exceptions raised by the entry points that rejected {@code bytes}, one per entry point. */
    static List<DecodeException> exercise(byte[] bytes) {
        List<DecodeException> rejections = new ArrayList<>();
        ByteBuf buf = GtpVectors.pooled(bytes);
        try {
            run(rejections, () -> GtpVersion.supported(buf, 0));
            run(rejections, () -> exerciseView(buf));
            run(rejections, () -> exerciseV0(buf, bytes));
            run(rejections, () -> exerciseV1(buf, bytes));
            run(rejections, () -> exerciseV2(buf, bytes));
            assertThat(buf.readerIndex()).isZero();
            assertThat(ByteBufUtil.getBytes(buf)).isEqualTo(bytes);
            assertThat(buf.refCnt()).isEqualTo(1);
        } finally {
            buf.release();
        }
        return rejections;
    }

    private interface Step {
        void run() throws DecodeException;
    }

    private static void run(List<DecodeException> rejections, Step step) {
        try {
            step.run();
        } catch (DecodeException e) {
            assertThat(e.reason()).isNotNull();
            assertThat(e.getMessage()).isNotBlank();
            rejections.add(e);
        }
    }

    private static Object exerciseView(ByteBuf buf) throws DecodeException {
        GtpMessageView view = new GtpMessageView(GtpV0TidOrder.LIBGTP_REVERSED).wrap(buf);
        view.messageTypeValue();
        view.isRequest();
        view.createsTunnel();
        view.sequence();
        view.teid();
        view.piggybackedOffset();
        view.imsi();
        view.cause();
        return view.senderControlPlane();
    }

    private static Object exerciseV0(ByteBuf buf, byte[] bytes) throws DecodeException {
        GtpV0Header header = GtpV0Header.of(buf);
        header.messageType().name();
        header.imsi(GtpV0TidOrder.GSM_09_60);
        header.nsapi(GtpV0TidOrder.LIBGTP_REVERSED);
        GtpV0Message m = GtpV0Codec.decode(buf);
        m.cause();
        m.senderSignallingAddress();
        m.imsi(GtpV0TidOrder.LIBGTP_REVERSED);
        assertReencodes(GtpVectors.encoded(out -> GtpV0Codec.encode(m, out)), bytes, header.totalLength());
        return m;
    }

    private static Object exerciseV1(ByteBuf buf, byte[] bytes) throws DecodeException {
        GtpV1Header header = GtpV1Header.of(buf);
        header.messageType().name();
        header.sequence();
        header.npduNumber();
        header.nextExtensionType();
        GtpV1Message m = GtpV1Codec.decode(buf);
        m.imsi();
        m.cause();
        m.senderControlPlane();
        if (m.type().isKnown()) {
            GtpV1Ies.imsi(buf, header);
            GtpV1Ies.cause(buf, header);
        }
        assertReencodes(GtpVectors.encoded(out -> GtpV1Codec.encode(m, out)), bytes, header.totalLength());
        return m;
    }

    private static Object exerciseV2(ByteBuf buf, byte[] bytes) throws DecodeException {
        GtpV2Header header = GtpV2Header.of(buf);
        header.messageType().name();
        header.sequence();
        header.teid();
        header.nextMessageOffset();
        GtpV2Message first = GtpV2Codec.decode(buf);
        first.imsi();
        first.cause();
        first.senderControlPlane();
        first.bearerContexts();
        GtpV2Ies.imsi(buf, header);
        GtpV2Ies.cause(buf, header);
        assertReencodes(GtpVectors.encoded(out -> GtpV2Codec.encode(first, out)), bytes, header.totalLength());
        List<GtpV2Message> all = GtpV2Codec.decodeAll(buf);
        byte[] again = GtpVectors.encoded(out -> GtpV2Codec.encodeAll(all, out));
        assertReencodes(again, bytes, again.length);
        return all;
    }

    private static void assertReencodes(byte[] encoded, byte[] original, int length) {
        assertThat(ByteBufUtil.hexDump(encoded))
                .as("re-encoding is lossless")
                .isEqualTo(ByteBufUtil.hexDump(Arrays.copyOf(original, length)));
    }
}
