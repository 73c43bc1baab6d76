package io.switchboard.director;

import io.vertx.core.Deployable;
import java.net.InetSocketAddress;

/** What listens on a virtual address: a verticle deployed by the director, with its bound address. */
public interface VirtualServerListener extends Deployable {

    /** The bound address (with the real port when the configuration said 0); null before start. */
    InetSocketAddress localAddress();
}
