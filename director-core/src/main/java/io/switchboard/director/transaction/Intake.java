package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.DatagramPlugin;
import java.net.InetSocketAddress;

/**
 * Steps 2 and 3 of the packet path for a datagram sent to the virtual address, before any real is
 * chosen: the virtual server in service, the size it accepts, the plug-in's local answer (a GTP Echo),
 * its relay between peers (a PGW's request to the MME of its session), and classification into the
 * sticky key. Shared by the live lanes and what-if, so that both take the same datagrams the same way.
 */
public final class Intake {

    /** A plug-in decided a relay it declared no table for ({@link #relayedRequests}). */
    static final DropReason UNDECLARED_RELAY = DropReason.of("undeclared-relay");

    private final EngineScope scope;
    private final DatagramPlugin plugin;
    private final int maxDatagram;

    public Intake(EngineScope scope) {
        this.scope = scope;
        this.plugin = scope.virtualServer().plugin();
        this.maxDatagram = scope.virtualServer().config().maxDatagram();
    }

    /**
     * Takes one datagram sent to the virtual address. Borrows {@code datagram}; what it sends it retains.
     *
     * @param alloc where a local answer is allocated
     * @param out   where local answers and relays to peers go
     * @return the plug-in's decision to direct the request, or null when it was dealt with here
     *         (answered, relayed, dropped: counted and told in each case)
     */
    public Decision.Direct admit(ByteBuf datagram, InetSocketAddress client, ByteBufAllocator alloc, ClientSide out) {
        scope.metrics().received();
        if (!scope.virtualServer().inService()) {
            scope.drop(EngineDrops.OUT_OF_SERVICE, client, null);
            return null;
        }
        if (datagram.readableBytes() > maxDatagram) {
            scope.drop(DropReason.OVERSIZED, client, null);
            return null;
        }
        Decision decision;
        try {
            decision = plugin.decide(datagram, client, alloc);
        } catch (DecodeException e) {
            scope.drop(e.reason(), client, e.getMessage());
            return null;
        }
        if (decision instanceof Decision.Direct request) {
            return request;
        }
        if (decision instanceof Decision.AnswerLocally local) {
            scope.metrics().answeredLocally();
            scope.events().answeredLocally();
            out.toClient(local.answer(), client);
        } else {
            relay(decision, datagram, client, scope, out);
        }
        return null;
    }

    /**
     * A decision that relays between a real and a peer, or drops: a datagram relayed as the plug-in
     * rewrote it, a real's request or a peer's answer to one, a real's failure indication for a
     * triggering request ({@link RelayedRequests}). Shared with
     * the engine's datagrams from reals at a director socket.
     */
    public static void relay(Decision decision, ByteBuf datagram, InetSocketAddress sender, EngineScope scope,
            ClientSide out) {
        if (decision instanceof Decision.RelayTo relay) {
            scope.metrics().relayed();
            scope.events().relayedToPeer();
            out.toClient(datagram.retain(), relay.peer());
        } else if (decision instanceof Decision.Drop drop) {
            scope.drop(drop.reason(), sender, drop.detail());
        } else if (decision instanceof Decision.RealRequest || decision instanceof Decision.PeerAnswer
                || decision instanceof Decision.TriggeredAnswer) {
            RelayedRequests relayed = relayedRequests(scope, sender);
            if (relayed == null) {
                return; // counted as undeclared
            }
            if (decision instanceof Decision.RealRequest request) {
                relayed.request(datagram, sender, request, scope, out);
            } else if (decision instanceof Decision.PeerAnswer answer) {
                relayed.answer(datagram, sender, answer, scope, out);
            } else {
                relayed.triggeredAnswer(datagram, sender, (Decision.TriggeredAnswer) decision, scope, out);
            }
        }
    }

    /**
     * The virtual server's relayed requests, or null — counted as a drop, logged at a limited rate —
     * when its plug-in decided a relay without declaring {@code TransactionPlugin.realRequests()}: a
     * plug-in's mistake, which must not take a datagram away uncounted.
     */
    static RelayedRequests relayedRequests(EngineScope scope, InetSocketAddress sender) {
        RelayedRequests relayed = scope.virtualServer().relayedRequests();
        if (relayed == null) {
            scope.drop(UNDECLARED_RELAY, sender, "the plug-in decided a real's request, a peer's answer or a"
                    + " triggering request but declares no TransactionPlugin.realRequests()");
        }
        return relayed;
    }
}
