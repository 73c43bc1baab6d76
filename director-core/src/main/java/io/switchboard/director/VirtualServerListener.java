package io.switchboard.director;

import io.vertx.core.Deployable;
import io.vertx.core.Future;
import java.net.InetSocketAddress;

/** What listens on a virtual address: a verticle deployed by the director, with its bound address. */
public interface VirtualServerListener extends Deployable {

    /** The bound address (with the real port when the configuration said 0); null before start. */
    InetSocketAddress localAddress();

    /**
     * Requests received and not answered yet, for a draining node to wait for; 0 for a listener
     * whose work is not transactions (TCP connections end on their own).
     */
    default Future<Integer> inFlight() {
        return Future.succeededFuture(0);
    }

    /**
     * Requests in flight, and one more while a datagram reached the listener within the last
     * {@code quietNanos}: whether a virtual server that moved to another address may close its old
     * one yet.
     */
    default Future<Integer> unsettled(long quietNanos) {
        return inFlight();
    }

    /**
     * Serves {@code next} (the same virtual server, reconfigured) on this listener's sockets from now
     * on, without losing a datagram they accepted: completes once every socket hands new datagrams to
     * it. What the one it replaces has in flight is answered by that one until nothing is left, or at
     * {@code retireByNanos} (ticker time), when it is closed ({@link #retiring()}). Fails when this
     * listener cannot (the default).
     */
    default Future<Void> replace(VirtualServer next, long retireByNanos) {
        return Future.failedFuture(new UnsupportedOperationException(
                "virtual server " + next.name() + ": its listener cannot be reconfigured in place"));
    }

    /** Engines of replaced virtual servers still answering what they had in flight. */
    default Future<Integer> retiring() {
        return Future.succeededFuture(0);
    }
}
