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
}
