package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** The Commands forwarded to reals: their sequence numbers (TS 29.274 §7.6) and how they are answered. */
class GtpForwardedCommandsTest {

    private static final InetAddress PGW = InetAddress.getLoopbackAddress();
    private static final InetSocketAddress MME = new InetSocketAddress("127.0.10.20", 2123);
    private static final InetSocketAddress OTHER_MME = new InetSocketAddress("127.0.10.21", 2123);

    private final GtpForwardedCommands commands = new GtpForwardedCommands();

    @Test
    void aCommandGoesOutWithTheTopBitSetAndARetransmissionUnderTheSameNumber() {
        int first = commands.forward(PGW, MME, 0x800001, 11, 0);
        int second = commands.forward(PGW, OTHER_MME, 0x800001, 13, 0);
        assertThat(first & GtpForwardedCommands.COMMAND_SEQUENCE_BIT).isNotZero();
        assertThat(second & GtpForwardedCommands.COMMAND_SEQUENCE_BIT).isNotZero();
        assertThat(second).as("another MME's Command of the same number").isNotEqualTo(first);
        assertThat(commands.forward(PGW, MME, 0x800001, 11, 5)).as("a retransmission").isEqualTo(first);
        assertThat(commands.size()).isEqualTo(2);
    }

    @Test
    void aCommandIsAnsweredOnceOnItsSessionOnly() {
        int sequence = commands.forward(PGW, MME, 0x800007, 11, 0);
        assertThat(commands.answered(PGW, sequence, 13)).as("another session").isNull();
        assertThat(commands.answered(PGW, sequence & ~GtpForwardedCommands.COMMAND_SEQUENCE_BIT, 11))
                .as("top bit clear: the real's own request").isNull();
        GtpForwardedCommands.Outstanding answered = commands.answered(PGW, sequence, 11);
        assertThat(answered).isNotNull();
        assertThat(answered.requesterSequence()).isEqualTo(0x800007);
        assertThat(answered.requester()).isEqualTo(MME);
        assertThat(commands.answered(PGW, sequence, 11)).as("answered already").isNull();
        assertThat(commands.forward(PGW, MME, 0x800007, 11, 0)).as("a new Command, a new number")
                .isNotEqualTo(sequence);
    }

    @Test
    void unansweredCommandsAreForgottenAfterTheTimeout() {
        int sequence = commands.forward(PGW, MME, 0x800009, 11, 0);
        commands.expire(1_000, 1_000);
        assertThat(commands.size()).isEqualTo(1);
        commands.expire(1_001, 1_000);
        assertThat(commands.size()).isZero();
        assertThat(commands.answered(PGW, sequence, 11)).isNull();
    }
}
