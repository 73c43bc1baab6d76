package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * The virtual address as the engine sends from it: answers relayed to clients, datagrams relayed to
 * peers, local answers. A live lane queues them on its virtual-address socket (flushed at the end of
 * the read burst); what-if takes them as the director's answers to the capture's clients.
 */
public interface ClientSide {

    /** Sends {@code datagram} from the virtual address to {@code to}; takes ownership of it. */
    void toClient(ByteBuf datagram, InetSocketAddress to);
}
