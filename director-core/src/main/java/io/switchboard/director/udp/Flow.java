package io.switchboard.director.udp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * One client's datagram flow to one real, with the director-owned socket it uses toward the real.
 * Answers arriving on that socket belong to this client; requests are matched to answers in order
 * (generic UDP carries no transaction id). Confined to its lane's event loop.
 */
final class Flow {

    final InetSocketAddress client;
    final RealServer real;
    final ChannelFuture bound;
    /** Transaction ids of this flow's requests still pending, oldest first. */
    final ArrayDeque<Long> outstanding = new ArrayDeque<>();
    final int id;
    private int nextSequence;
    long lastUsedNanos;

    Flow(int id, InetSocketAddress client, RealServer real, ChannelFuture bound, long nowNanos) {
        this.id = id;
        this.client = client;
        this.real = real;
        this.bound = bound;
        this.lastUsedNanos = nowNanos;
    }

    Channel channel() {
        return bound.channel();
    }

    /** A transaction id unique within the lane: flow id in the high bits, a sequence below. */
    long nextTransactionId() {
        return ((long) id << 16) | (nextSequence++ & 0xFFFF);
    }
}
