package io.switchboard.director.config;

import java.time.Duration;

/**
 * In-band failure detection of a farm (IOS {@code faildetect numconns N numclients M} and
 * {@code retry}): a real that leaves {@code numconns} consecutive requests unanswered, from at least
 * {@code numclients} distinct clients, is FAILED; after {@code retry} it is offered one new request
 * to test it.
 */
public record FailureDetection(int numconns, int numclients, Duration retry) {

    /** IOS SLB defaults: numconns 8, numclients 2, retry 60 s. */
    public static final FailureDetection DEFAULT = new FailureDetection(8, 2, Duration.ofSeconds(60));
}
