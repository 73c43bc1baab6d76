package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.NodeSlot;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.shared.SharedTables;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The shared session table's bytes: every field round trips, a node's own reals come back, bad bytes are refused. */
class GtpSessionCodecTest {

    private final GtpInspectNode a;
    private final GtpInspectNode b;

    GtpSessionCodecTest() throws Exception {
        a = new GtpInspectNode(SharedTables.IN_MEMORY, NodeSlot.SINGLE, new AtomicLong());
        b = new GtpInspectNode(SharedTables.IN_MEMORY, NodeSlot.SINGLE, new AtomicLong());
    }

    private GtpSession roundTrip(GtpSession session) {
        byte[] bytes = new GtpSessionCodec(a.farms).encode(session);
        return new GtpSessionCodec(b.farms).decode(bytes);
    }

    private GtpSession atB(GtpSession s) {
        RealServer real = b.real(s.real().address());
        return new GtpSession(s.version(), real, s.imsi(), s.binding(), s.directorTeid(), s.realFacingTeid(),
                s.realTeid(), s.requesterTeid(), s.requester(), s.refreshedMillis(), s.bearer());
    }

    @Test
    void everyFieldRoundTripsAndTheRealIsTheReadingNodesOwn() {
        RealServer real = a.real(GtpInspectNode.GGSN_2);
        for (GtpSession s : new GtpSession[] {
                new GtpSession(2, real, "262420000008001", "262420000008001", 0xFC00_0003L, 0xFC00_0002L, 0xFFFF_FFFFL,
                        0x8000_0001L, new InetSocketAddress("127.0.7.20", 2123), 1_764_000_000_123L, 0x10A5),
                new GtpSession(1, real, "262420000008002", "262420000008002@other", 5, 4, 7, 9,
                        new InetSocketAddress("::1", 2123), 42),
                new GtpSession(1, real, null, null, 7, 0, 11, 0, null, 0),
                new GtpSession(0, real, "262420000008003", "262420000008003", 0x8000_1234_5678_9ABCL, 0, 0, 0,
                        new InetSocketAddress("127.0.7.21", 3386), 7)}) {
            GtpSession back = roundTrip(s);
            assertThat(back).isEqualTo(atB(s));
            assertThat(back.real()).isSameAs(b.real(GtpInspectNode.GGSN_2));
        }
        byte[] compact = new GtpSessionCodec(a.farms).encode(new GtpSession(2, real, "262420000008001",
                "262420000008001", 3, 2, 1, 1, new InetSocketAddress("127.0.7.20", 2123), 1));
        assertThat(compact.length).as("bytes of a v2 session, IPv4 requester").isLessThan(80);
    }

    @Test
    void relayedRequestsRoundTrip() {
        var codec = GtpRealRequests.CODEC;
        for (GtpRealRequests.Relayed r : List.of(new GtpRealRequests.Relayed(1, 0xFC00_0003L, true),
                new GtpRealRequests.Relayed(2, 5, false), new GtpRealRequests.Relayed(0, -7L, true))) {
            assertThat(codec.decode(codec.encode(r))).isEqualTo(r);
        }
        byte[] bytes = codec.encode(new GtpRealRequests.Relayed(1, 1, false));
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        bytes[0] = 2;
        assertThatThrownBy(() -> codec.decode(bytes)).as("another format").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keysRoundTrip() {
        assertThat(GtpSessionCodec.TEID.decode(GtpSessionCodec.TEID.encode(0xFFFF_FFFEL))).isEqualTo(0xFFFF_FFFEL);
        assertThat(GtpSessionCodec.TID.decode(GtpSessionCodec.TID.encode(-5L))).isEqualTo(-5L);
        assertThatThrownBy(() -> GtpSessionCodec.TEID.decode(new byte[3])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void truncatedBytesOrAnUnknownRealAreRefused() {
        GtpSessionCodec codec = new GtpSessionCodec(a.farms);
        byte[] bytes = codec.encode(new GtpSession(1, a.real(GtpInspectNode.GGSN_1), "262420000008004",
                "262420000008004", 3, 2, 1, 1, null, 1));
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThatThrownBy(() -> codec.decode(cut)).isInstanceOf(IllegalArgumentException.class);
        }
        byte[] otherFormat = bytes.clone();
        otherFormat[0] = 9;
        assertThatThrownBy(() -> codec.decode(otherFormat)).hasMessageContaining("format 9");
        // A real this node does not have: its id changed in the bytes ("127.0.7.31" -> "127.0.7.39").
        String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).replace("127.0.7.31", "127.0.7.39");
        byte[] unknown = text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> codec.decode(unknown)).hasMessageContaining("no real");
    }
}
