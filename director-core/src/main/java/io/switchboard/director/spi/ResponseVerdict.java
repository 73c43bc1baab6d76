package io.switchboard.director.spi;

/** What the director does with an answer after the plug-in inspected it ({@link TransactionPlugin#inspectResponse}). */
public enum ResponseVerdict {
    /** Restore the client's transaction id and relay the answer (the default). */
    RELAY,
    /**
     * The real refused the request for lack of resources (a GTP resource cause): the real is failed,
     * the same request is resent to another real chosen by the selector (at most
     * {@link TransactionPlugin#reassignLimit()} times), and this answer is dropped. When no other
     * real may take it, or the limit is reached, this answer is relayed after all.
     */
    RETRY_ELSEWHERE,
    /** Drop the answer; the client gets nothing (counted as {@code responses.unmatched{reason="dropped"}}). */
    DROP
}
