package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.udp.DatagramPlugin;
import io.switchboard.director.udp.LocalResponder;
import io.switchboard.director.udp.PeerRelay;
import java.net.InetSocketAddress;

/**
 * Steps 2 and 3 of the packet path for a datagram sent to the virtual address, before any real is
 * chosen: the virtual server in service, the size it accepts, the plug-in's local answer (a GTP Echo),
 * its relay between peers (a PGW's request to the MME of its session), and classification into the
 * sticky key. Shared by the live lanes and what-if, so that both take the same datagrams the same way.
 */
public final class Intake {

    private final EngineScope scope;
    private final DatagramPlugin plugin;
    private final int maxDatagram;
    /** The plug-in when it answers some requests itself, else null. */
    private final LocalResponder responder;
    /** The plug-in when it relays some datagrams between peers, else null. */
    private final PeerRelay peerRelay;

    public Intake(EngineScope scope) {
        this.scope = scope;
        this.plugin = scope.virtualServer().plugin();
        this.maxDatagram = scope.virtualServer().config().maxDatagram();
        this.responder = plugin instanceof LocalResponder r ? r : null;
        this.peerRelay = plugin instanceof PeerRelay r ? r : null;
    }

    /**
     * Takes one datagram sent to the virtual address. Borrows {@code datagram}; what it sends it retains.
     *
     * @param alloc where a local answer is allocated
     * @param out   where local answers and relays to peers go
     * @return the sticky key to direct the request by, or null when it was dealt with here (answered,
     *         relayed, dropped: counted and told in each case)
     */
    public StickyKey admit(ByteBuf datagram, InetSocketAddress client, ByteBufAllocator alloc, ClientSide out) {
        scope.metrics().received();
        if (!scope.virtualServer().inService()) {
            scope.drop(EngineDrops.OUT_OF_SERVICE, client, null);
            return null;
        }
        if (datagram.readableBytes() > maxDatagram) {
            scope.drop(DropReason.OVERSIZED, client, null);
            return null;
        }
        try {
            ByteBuf answer = responder == null ? null : responder.answerLocally(datagram, client, alloc);
            if (answer != null) {
                scope.metrics().answeredLocally();
                scope.events().answeredLocally();
                out.toClient(answer, client);
                return null;
            }
            InetSocketAddress peer = peerRelay == null ? null : peerRelay.relayTarget(datagram, client);
            if (peer != null) {
                scope.metrics().relayed();
                scope.events().relayedToPeer();
                out.toClient(datagram.retain(), peer);
                return null;
            }
            return plugin.classify(datagram, client);
        } catch (DecodeException e) {
            scope.drop(e.reason(), client, e.getMessage());
            return null;
        }
    }
}
