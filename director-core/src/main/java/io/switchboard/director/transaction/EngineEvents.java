package io.switchboard.director.transaction;

import io.switchboard.codec.DropReason;
import io.switchboard.director.Selection;
import io.switchboard.director.real.RealServer;

/**
 * What became of a datagram the engine was given, told to whoever drives it, beside the counters and
 * the rate-limited log the engine keeps itself. A live lane needs none of it ({@link #NONE}); an
 * offline what-if run records it to print what became of each request of a capture. Called on the
 * engine's thread, synchronously, while the engine handles the datagram.
 */
public interface EngineEvents {

    /** Nothing to tell: the live lanes. */
    EngineEvents NONE = new EngineEvents() {
    };

    /** The datagram was dropped, counted under {@code reason}. */
    default void dropped(DropReason reason) {
    }

    /** The plug-in answered the request itself, from the virtual address. */
    default void answeredLocally() {
    }

    /** The plug-in relayed the datagram to a peer rather than to the farm. */
    default void relayedToPeer() {
    }

    /**
     * A new request went to {@code real}, chosen for {@code how}.
     *
     * @param oneWay nothing waits for its answer (the real answers the client directly, or never)
     */
    default void forwarded(RealServer real, Selection.Reason how, boolean oneWay) {
    }

    /** A retransmission went to the real that has the request already. */
    default void retransmitted(RealServer real, boolean oneWay) {
    }

    /** {@code refused} refused the request for lack of resources; it was resent to {@code next}. */
    default void reassigned(RealServer refused, RealServer next) {
    }

    /** An answer the plug-in had dropped after inspection ({@code ResponseVerdict.DROP}). */
    default void answerDropped(RealServer real) {
    }

    /** An answer that could not be inspected or restored for the client, counted as malformed. */
    default void answerRefused(RealServer real, DropReason reason) {
    }
}
