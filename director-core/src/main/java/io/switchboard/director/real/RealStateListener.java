package io.switchboard.director.real;

/**
 * Told of the changes of a real's state that this node made and that every node must know to direct
 * alike: administrative in/out of service and drains, dynamic weights (set through the API or by feedback
 * such as DFP), and failures this node detected in-band. The cluster shares them; a single node has
 * {@link #NONE}. Changes applied on behalf of another node ({@code RealServer.apply...}) are not
 * reported back, so nothing echoes.
 *
 * <p>Called on the thread that made the change, often an event loop: implementations return at once
 * and never block.
 */
public interface RealStateListener {

    RealStateListener NONE = new RealStateListener() {
    };

    /** Administrative {@code inservice} (true) or {@code no inservice} (false). */
    default void adminChanged(RealServer real, boolean inService) {
    }

    /** Administrative drain, with its wall-clock deadline in epoch milliseconds (0 for none). */
    default void drainStarted(RealServer real, long deadlineMillis) {
    }

    /** The dynamic weight was set, to 0..255. */
    default void weightChanged(RealServer real, int weight) {
    }

    /** This node moved the real to FAILED on its own evidence (unanswered requests, a resource cause). */
    default void failed(RealServer real) {
    }
}
