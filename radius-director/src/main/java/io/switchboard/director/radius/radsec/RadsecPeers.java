package io.switchboard.director.radius.radsec;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The configured clients as the RadSec listener asks about them: which one a TLS peer is, once its
 * handshake is done, and that it is gone. While connected, the RADIUS plug-in knows the peer's
 * address as that client, with the fixed secret {@code radsec} (RFC 6614 §2.3).
 */
public interface RadsecPeers {

    /**
     * Identifies the peer at {@code address} whose verified certificate carries {@code names}
     * ({@link RadsecTls#names}), as {@link RadsecOptions#identify()} says, and registers it: the
     * client's label (for logs), or null when no client is that peer.
     */
    String connected(InetSocketAddress address, List<String> names);

    /** The peer's connection closed. */
    void closed(InetSocketAddress address);

    /** Knows from now on the peers {@code previous} (the replaced virtual server's) knew; told when they leave. */
    void takeOver(RadsecPeers previous);
}
