package io.switchboard.director.config;

import java.time.Duration;

/**
 * Failure detection of a farm (IOS {@code faildetect numconns N numclients M}, {@code retry},
 * {@code faildetect inband} and {@code failaction purge}): a real that leaves {@code numconns}
 * consecutive requests unanswered, from at least {@code numclients} distinct clients, is FAILED;
 * after {@code retry} it is offered one new request to test it.
 *
 * @param inband false (IOS {@code no faildetect inband}): unanswered requests do not count toward
 *               failing a real, only probes (and a test request, or a GTP resource cause) fail it
 * @param purge  true (IOS {@code failaction purge}): when a real fails, its sticky bindings and the
 *               sessions the plug-ins keep on it are removed at once, so that each subscriber's
 *               next request is placed anew instead of waiting for their idle timers
 */
public record FailureDetection(int numconns, int numclients, Duration retry, boolean inband, boolean purge) {

    /** IOS SLB defaults: numconns 8, numclients 2, retry 60 s, in-band detection on, no purge. */
    public static final FailureDetection DEFAULT = new FailureDetection(8, 2, Duration.ofSeconds(60));

    /** In-band detection on, no purge (the IOS defaults). */
    public FailureDetection(int numconns, int numclients, Duration retry) {
        this(numconns, numclients, retry, true, false);
    }
}
