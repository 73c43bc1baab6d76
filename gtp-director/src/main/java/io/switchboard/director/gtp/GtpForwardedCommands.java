package io.switchboard.director.gtp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * GTPv2 Commands (TS 29.274 §7.2.5, §7.2.17: Modify Bearer, Delete Bearer, Bearer Resource Command)
 * that {@code gtp-inspect} forwarded from requesters to reals and that the real has not answered yet.
 * A real answers a Command with the request it triggers (Create / Update / Delete Bearer Request) or
 * with a Failure Indication, either under the Command's sequence number (§7.6): the director's, toward
 * the real. Each is found here by that number and the real's address, and goes to the requester under
 * the requester's own Command sequence number.
 *
 * <p>Per node, not shared, on purpose: a Command leaves from this node's director socket, and the
 * real's Failure Indication and triggered request go back to where it came from (§4.2.2). The
 * director's sequence numbers of Commands have the top bit set (§7.6), the rest a counter of this
 * node's; a retransmitted Command gets the number it had.
 */
final class GtpForwardedCommands {

    /** TS 29.274 §7.6: set in a Command's sequence number (and so in its triggered messages'), clear elsewhere. */
    static final int COMMAND_SEQUENCE_BIT = 0x80_0000;
    private static final int COUNTER_MASK = COMMAND_SEQUENCE_BIT - 1;

    /**
     * A Command the real has.
     *
     * @param requesterSequence the requester's own sequence number of the Command
     * @param session           the session's director TEID
     * @param sequence          the director's sequence number toward the real
     */
    record Outstanding(InetAddress real, InetSocketAddress requester, int requesterSequence, long session,
            int sequence, long sinceNanos) {
    }

    private record ToReal(InetAddress real, int sequence) {
    }

    private record FromRequester(InetSocketAddress requester, int sequence) {
    }

    private final Map<ToReal, Outstanding> byReal = new ConcurrentHashMap<>();
    private final Map<FromRequester, Outstanding> byRequester = new ConcurrentHashMap<>();
    private final AtomicInteger next = new AtomicInteger();

    /**
     * The director's sequence number for a requester's Command to {@code real}: the one it had when
     * it is a retransmission, else one not outstanding at that real.
     */
    int forward(InetAddress real, InetSocketAddress requester, int requesterSequence, long session, long nowNanos) {
        FromRequester origin = new FromRequester(requester, requesterSequence);
        Outstanding known = byRequester.get(origin);
        if (known != null && known.real().equals(real)) {
            return known.sequence();
        }
        int sequence = COMMAND_SEQUENCE_BIT;
        for (int probe = 0; probe <= COUNTER_MASK; probe++) {
            sequence = COMMAND_SEQUENCE_BIT | (next.getAndIncrement() & COUNTER_MASK);
            if (!byReal.containsKey(new ToReal(real, sequence))) {
                break;
            }
        }
        Outstanding command = new Outstanding(real, requester, requesterSequence, session, sequence, nowNanos);
        Outstanding replaced = byReal.put(new ToReal(real, sequence), command);
        if (replaced != null) {
            byRequester.remove(new FromRequester(replaced.requester(), replaced.requesterSequence()), replaced);
        }
        byRequester.put(origin, command);
        return sequence;
    }

    /**
     * The Command of session {@code session} that a message from {@code real} under {@code sequence}
     * answers, no longer outstanding; or null (no such Command: the message is the real's own).
     */
    Outstanding answered(InetAddress real, int sequence, long session) {
        if ((sequence & COMMAND_SEQUENCE_BIT) == 0 || byReal.isEmpty()) {
            return null;
        }
        ToReal key = new ToReal(real, sequence);
        Outstanding command = byReal.get(key);
        if (command == null || command.session() != session || !byReal.remove(key, command)) {
            return null;
        }
        byRequester.remove(new FromRequester(command.requester(), command.requesterSequence()), command);
        return command;
    }

    /** Forgets Commands forwarded longer than {@code timeoutNanos} ago (their answer did not pass here). */
    void expire(long nowNanos, long timeoutNanos) {
        byReal.values().removeIf(c -> nowNanos - c.sinceNanos() > timeoutNanos);
        byRequester.values().removeIf(c -> nowNanos - c.sinceNanos() > timeoutNanos);
    }

    int size() {
        return byReal.size();
    }
}
