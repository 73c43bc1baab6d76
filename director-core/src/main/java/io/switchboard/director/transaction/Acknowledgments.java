package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;

/**
 * The plug-in's own answers to requests the engine forwards ({@link TransactionPlugin#acknowledgment}:
 * RADIUS {@code acct local-ack}, where the director acknowledges an Accounting-Request and the
 * accounting server's answer is absorbed). Sent once the request is on its way to a real, so that a
 * request no real takes (none serves, overload) is not acknowledged and the client's own
 * retransmission or fail-over still applies. Counted as answered locally; the real's answer, once
 * the plug-in has read it, as absorbed.
 */
final class Acknowledgments {

    private final EngineScope scope;
    private final TransactionPlugin<Object> plugin;
    private final ClientSide clients;

    Acknowledgments(EngineScope scope, TransactionPlugin<Object> plugin, ClientSide clients) {
        this.scope = scope;
        this.plugin = plugin;
        this.clients = clients;
    }

    /** The plug-in's answer for the request {@code context} was prepared for, or null; the caller owns it. */
    ByteBuf of(Object context, ByteBuf request) {
        return plugin.acknowledgment(context, request.alloc());
    }

    /**
     * Sends {@code ack} (null: nothing) to the client when {@code first} — the first copy of the
     * request to leave, not a fanned-out request's further copies or a reassigned one — else lets it go.
     */
    void send(ByteBuf ack, boolean first, InetSocketAddress client) {
        if (ack == null) {
            return;
        }
        if (!first) {
            ack.release();
            return;
        }
        scope.metrics().answeredLocally();
        scope.events().answeredLocally();
        clients.toClient(ack, client);
    }

    /** The real's answer to an acknowledged request, read by the plug-in and not relayed. */
    void absorbed() {
        scope.metrics().absorbed();
    }
}
