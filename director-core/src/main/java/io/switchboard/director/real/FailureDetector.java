package io.switchboard.director.real;

import java.util.HashSet;
import java.util.Set;

/**
 * IOS SLB in-band failure detection for one real: {@code numconns} consecutive unanswered requests,
 * coming from at least {@code numclients} distinct clients, fail the real. Any answer starts the
 * count again. Requiring several clients keeps one broken client from failing a healthy server.
 * Not thread-safe: the owning {@link RealServer} synchronises.
 */
final class FailureDetector {

    private final int numconns;
    private final int numclients;
    private int consecutive;
    private final Set<Object> clients = new HashSet<>();

    FailureDetector(int numconns, int numclients) {
        if (numconns < 1 || numclients < 1) {
            throw new IllegalArgumentException("numconns and numclients must be >= 1");
        }
        this.numconns = numconns;
        this.numclients = numclients;
    }

    /** Records one unanswered request; true when the real has now failed. */
    boolean unanswered(Object client) {
        consecutive++;
        if (clients.size() < numclients) {
            clients.add(client);
        }
        return consecutive >= numconns && clients.size() >= numclients;
    }

    void answered() {
        reset();
    }

    void reset() {
        consecutive = 0;
        clients.clear();
    }

    int consecutiveFailures() {
        return consecutive;
    }
}
