package io.switchboard.director.transaction;

import io.netty.buffer.ByteBuf;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.overload.Admission;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;

/**
 * The engine's one question to the virtual server's admission control ({@code overload:}), asked
 * after a retransmission of what is pending went its way (an admitted request stays admitted) and
 * before any real is chosen, by the live lanes and what-if alike. A refused request for new work gets
 * the plug-in's answer (a GTP create's "No resources available"), if it has one, from the virtual
 * address; everything else refused is dropped, counted as {@code dropped{overload}}.
 */
final class Overloaded {

    private Overloaded() {
    }

    /**
     * True when the request was refused (and answered or dropped, counted); false when it is taken.
     *
     * @param plugin   the transaction plug-in, or null for a new flow (generic UDP: no answer)
     * @param decision the plug-in's decision, or null for a new flow (new work)
     */
    static boolean refused(EngineScope scope, TransactionPlugin<?> plugin, ClientSide clients, ByteBuf datagram,
            InetSocketAddress client, Decision.Direct decision, long now) {
        Admission admission = scope.virtualServer().admission();
        if (!admission.enabled()) {
            return false;
        }
        boolean session = decision != null && decision.session();
        Admission.Limit limit = admission.admit(session, client.getAddress(), now);
        if (limit == null) {
            return false;
        }
        ByteBuf answer = null;
        if (!session && plugin != null) {
            try {
                answer = plugin.overloadAnswer(datagram, datagram.alloc());
            } catch (DecodeException e) {
                answer = null; // decided once already; an answer that cannot be built is a silent refusal
            }
        }
        if (answer == null) {
            scope.drop(EngineDrops.OVERLOAD, client, (session ? "session work shed by the " : "new work refused by the ")
                    + limit.tag() + " limit");
        } else {
            scope.metrics().answeredLocally();
            scope.events().answeredLocally();
            clients.toClient(answer, client);
        }
        return true;
    }
}
