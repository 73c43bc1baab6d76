package io.switchboard.director.radius.radsec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The RadSec stream framing (RFC 6614 §2.5: packets follow each other on the stream, each framed by
 * its RADIUS Length field, RFC 2865 §3: 20..4096): a packet split over reads, packets coalesced in
 * one read, and a Length out of range, which loses the stream (counted, connection closed).
 */
class RadiusFramerTest {

    private final AtomicInteger errors = new AtomicInteger();
    private final EmbeddedChannel channel = new EmbeddedChannel(new RadiusFramer(errors::incrementAndGet));
    private final List<ByteBuf> held = new ArrayList<>();

    @AfterEach
    void release() {
        held.forEach(ByteBuf::release);
        channel.finishAndReleaseAll();
    }

    /** A packet of {@code length} octets: code, identifier {@code id}, Length, then filler. */
    private static byte[] packet(int id, int length) {
        byte[] p = new byte[length];
        p[0] = 1;
        p[1] = (byte) id;
        p[2] = (byte) (length >> 8);
        p[3] = (byte) length;
        for (int i = 4; i < length; i++) {
            p[i] = (byte) (i * 7 + id);
        }
        return p;
    }

    private ByteBuf read() {
        ByteBuf b = channel.readInbound();
        if (b != null) {
            held.add(b);
        }
        return b;
    }

    private static byte[] bytes(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }

    @Test
    void aPacketSplitOverReadsComesOutWhole() {
        byte[] p = packet(7, 38);
        channel.writeInbound(Unpooled.wrappedBuffer(p, 0, 3)); // not even the whole Length
        assertThat(read()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(p, 3, 20));
        assertThat(read()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(p, 23, 15));
        assertThat(bytes(read())).isEqualTo(p);
        assertThat(read()).isNull();
        assertThat(errors).hasValue(0);
        assertThat(channel.isOpen()).isTrue();
    }

    @Test
    void coalescedPacketsComeOutOneByOneAndTheRestWaits() {
        byte[] a = packet(1, 20);
        byte[] b = packet(2, 4096);
        byte[] c = packet(3, 61);
        ByteBuf burst = Unpooled.buffer();
        burst.writeBytes(a).writeBytes(b).writeBytes(c, 0, 30);
        channel.writeInbound(burst);
        assertThat(bytes(read())).isEqualTo(a);
        assertThat(bytes(read())).isEqualTo(b);
        assertThat(read()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(c, 30, 31));
        assertThat(bytes(read())).isEqualTo(c);
        assertThat(errors).hasValue(0);
    }

    @Test
    void aLengthBelowTheHeaderLosesTheStream() {
        byte[] good = packet(1, 20);
        byte[] bad = packet(2, 20);
        bad[2] = 0;
        bad[3] = 19;
        channel.writeInbound(Unpooled.buffer().writeBytes(good).writeBytes(bad).writeBytes(packet(3, 20)));
        assertThat(bytes(read())).isEqualTo(good);
        assertThat(read()).as("nothing after the bad Length is trusted").isNull();
        assertThat(errors).hasValue(1);
        assertThat(channel.isOpen()).isFalse();
    }

    @Test
    void aLengthAboveTheMaximumLosesTheStream() {
        byte[] bad = packet(1, 20);
        bad[2] = 0x10;
        bad[3] = 0x01; // 4097
        channel.writeInbound(Unpooled.wrappedBuffer(bad));
        assertThat(read()).isNull();
        assertThat(errors).hasValue(1);
        assertThat(channel.isOpen()).isFalse();
    }
}
