package io.switchboard.director.transaction;

import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;

/**
 * One client's datagram flow to one real, with the director-owned socket it uses toward the real
 * ({@code S}: a Netty channel for a live lane, nothing for what-if). Answers arriving on that socket
 * belong to this client; requests are matched to answers in order (generic UDP carries no
 * transaction id). Confined to its engine's thread.
 */
public final class Flow<S> {

    final InetSocketAddress client;
    final RealServer real;
    S socket;
    /** Transaction ids of this flow's requests still pending, oldest first. */
    final ArrayDeque<Long> outstanding = new ArrayDeque<>();
    private final int id;
    private int nextSequence;
    long lastUsedNanos;

    Flow(int id, InetSocketAddress client, RealServer real, long nowNanos) {
        this.id = id;
        this.client = client;
        this.real = real;
        this.lastUsedNanos = nowNanos;
    }

    public InetSocketAddress client() {
        return client;
    }

    public RealServer real() {
        return real;
    }

    /** The flow's socket toward its real, as the {@link FlowEngine.FlowSide} opened it. */
    public S socket() {
        return socket;
    }

    /** A transaction id unique within the lane: flow id in the high bits, a sequence below. */
    long nextTransactionId() {
        return ((long) id << 16) | (nextSequence++ & 0xFFFF);
    }
}
