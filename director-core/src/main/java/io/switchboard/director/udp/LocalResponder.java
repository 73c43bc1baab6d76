package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import java.net.InetSocketAddress;

/**
 * A plug-in that answers some datagrams sent to the virtual address itself, from the virtual
 * address, instead of directing them to a real: a GTP Echo Request (path management with the
 * director's own Recovery value), a GTP Version Not Supported answer. The lane asks before
 * {@link DatagramPlugin#classify}; such answers are counted as
 * {@code switchboard.requests.answered.locally}. Like classify, a pure function over the bytes that
 * borrows the datagram.
 */
public interface LocalResponder {

    /**
     * @param alloc where to allocate the answer
     * @return the answer, which the caller sends and releases, or null to classify and direct the
     *         datagram as usual
     * @throws DecodeException as {@link DatagramPlugin#classify}: the datagram is counted as dropped
     *                         under the exception's reason
     */
    ByteBuf answerLocally(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException;
}
