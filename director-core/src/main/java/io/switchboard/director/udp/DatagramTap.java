package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * Sees every datagram a UDP virtual server receives and sends — from clients, to reals, from reals,
 * to clients — for a debug capture ({@link io.switchboard.director.VirtualServer#tap}). Called on
 * event loops with the bytes as they are on the wire at that moment: it must not block, and it
 * borrows the buffer (copies what it keeps; never moves its indexes, retains or releases it). Absent
 * (null) unless a capture runs, so that it costs one null check per datagram when off.
 */
@FunctionalInterface
public interface DatagramTap {

    /** {@code from} and {@code to} as the socket saw them (a wildcard local address stays 0.0.0.0). */
    void tap(InetSocketAddress from, InetSocketAddress to, ByteBuf datagram);
}
