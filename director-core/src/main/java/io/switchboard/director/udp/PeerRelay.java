package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import java.net.InetSocketAddress;

/**
 * A plug-in that relays some datagrams sent to the virtual address between peers rather than
 * directing them to the farm: in {@code gtp-inspect} a GGSN/PGW's own request for a session (Update,
 * Delete, Initiate) goes to the SGSN/MME of that session, and that peer's answer goes back to the
 * real, all from the virtual address. The lane asks after {@link LocalResponder} and before
 * {@link DatagramPlugin#classify}; such datagrams are counted as {@code responses.relayed}. Like
 * classify it borrows the datagram; it may rewrite it in place.
 */
public interface PeerRelay {

    /**
     * @return where to send the (rewritten) datagram from the virtual address, or null to classify
     *         and direct it as usual
     * @throws DecodeException the datagram is counted as dropped under the exception's reason
     */
    InetSocketAddress relayTarget(ByteBuf datagram, InetSocketAddress sender) throws DecodeException;

    /**
     * A datagram a real sent to a director socket that answers no pending request: in
     * {@code gtp-inspect} a PGW's request triggered by a requester's Command, or its Failure
     * Indication, which go back to where the Command came from (TS 29.274 §4.2.2, §7.6). Borrows the
     * datagram and may rewrite it in place, like {@link #relayTarget}.
     *
     * @return where to send it from the virtual address, or null to count it as unmatched
     * @throws DecodeException it is counted as unmatched
     */
    default InetSocketAddress relayFromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return null;
    }
}
