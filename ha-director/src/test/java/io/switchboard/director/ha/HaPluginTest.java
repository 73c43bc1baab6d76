package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.codec.mip.MipHeaderView;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.RealServer;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Matching replies to requests and the Home Agent field rewrite, without a network. */
class HaPluginTest {

    private static final int VIRTUAL_HA = 0x7f00000a;   // 127.0.0.10
    private static final int HOME = 0x0a630001;         // 10.99.0.1

    private static HaPlugin plugin(boolean rewrite) {
        return new HaPlugin(new HaOptions(true, rewrite), new HaCounters(new SimpleMeterRegistry(), "ha"));
    }

    private static RealServer real(String address) throws Exception {
        return new RealServer("ha", new RealConfig(InetAddress.getByName(address), 434, 1, OptionalInt.empty(), true),
                new FailureDetection(8, 2, Duration.ofMinutes(1)), 0);
    }

    /** RRQ (type 1) or RRP (type 3, code 0), with an MN-NAI extension when {@code nai} is not null. */
    private static ByteBuf message(int type, int homeAddress, int homeAgent, long identification, String nai) {
        byte[] n = nai == null ? new byte[0] : nai.getBytes(StandardCharsets.US_ASCII);
        int fixed = type == 1 ? 24 : 20;
        ByteBuffer b = ByteBuffer.allocate(fixed + (nai == null ? 0 : 2 + n.length));
        b.put((byte) type).put((byte) 0).putShort((short) 1800).putInt(homeAddress).putInt(homeAgent);
        if (type == 1) {
            b.putInt(0xc0000201);
        }
        b.putLong(identification);
        if (nai != null) {
            b.put((byte) 131).put((byte) n.length).put(n);
        }
        return Unpooled.wrappedBuffer(b.array());
    }

    @Test
    void aReplyMatchesItsRequestWhateverTheAgentPutInTheHighOrderIdentificationBits() throws Exception {
        HaPlugin plugin = plugin(false);
        long request = plugin.clientTransactionId(message(1, HOME, VIRTUAL_HA, 0x11111111_22222222L, null));
        // RFC 5944 §5.7: with nonces the reply's high-order 32 bits are the agent's next nonce.
        long reply = plugin.responseTransactionId(message(3, HOME, VIRTUAL_HA, 0x99999999_22222222L, null));
        assertThat(reply).isEqualTo(request);
        assertThat(plugin.responseTransactionId(message(3, HOME + 1, VIRTUAL_HA, 0x99999999_22222222L, null)))
                .as("another mobile node's reply").isNotEqualTo(request);
    }

    @Test
    void withAnNaiTheAssignedHomeAddressOfTheReplyStillMatches() throws Exception {
        HaPlugin plugin = plugin(false);
        long request = plugin.clientTransactionId(message(1, 0, VIRTUAL_HA, 7, "mn@example.net"));
        assertThat(plugin.responseTransactionId(message(3, HOME, VIRTUAL_HA, 7, "mn@example.net"))).isEqualTo(request);
        assertThat(request >>> 40).isZero();
    }

    @Test
    void onlyRequestsAreDirectedAndOnlyRepliesMatched() {
        HaPlugin plugin = plugin(false);
        DecodeException toVip = catchThrowableOfType(DecodeException.class,
                () -> plugin.classify(message(3, HOME, VIRTUAL_HA, 1, null), null));
        assertThat(toVip.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
        DecodeException fromAgent = catchThrowableOfType(DecodeException.class,
                () -> plugin.responseTransactionId(message(1, HOME, VIRTUAL_HA, 1, null)));
        assertThat(fromAgent.reason()).isEqualTo(DropReason.UNEXPECTED_MESSAGE);
    }

    @Test
    void theHomeAgentFieldIsRewrittenToTheChosenAgentAndBackInTheReply() throws Exception {
        HaPlugin plugin = plugin(true);
        ByteBuf rrq = message(1, HOME, VIRTUAL_HA, 5, null);
        Object context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"));
        assertThat(MipHeaderView.wrap(rrq).homeAgent()).isEqualTo(0x0a1e0003);
        ByteBuf rrp = message(3, HOME, 0x0a1e0003, 5, null);
        plugin.prepareResponse(rrp, 5, context);
        assertThat(MipHeaderView.wrap(rrp).homeAgent()).isEqualTo(VIRTUAL_HA);
    }

    @Test
    void withoutRewritingNoByteChanges() throws Exception {
        HaPlugin plugin = plugin(false);
        ByteBuf rrq = message(1, HOME, VIRTUAL_HA, 5, "mn@example.net");
        ByteBuf copy = rrq.copy();
        Object context = plugin.prepareRequest(rrq, plugin.clientTransactionId(rrq), real("10.30.0.3"));
        assertThat(rrq).isEqualTo(copy);
        ByteBuf rrp = message(3, HOME, VIRTUAL_HA, 5, "mn@example.net");
        ByteBuf replyCopy = rrp.copy();
        plugin.prepareResponse(rrp, 5, context);
        assertThat(rrp).isEqualTo(replyCopy);
        copy.release();
        replyCopy.release();
    }
}
