package io.switchboard.pcap;

/**
 * How a sticky binding ended, as a what-if run saw it happen in the director's tables
 * ({@link ObservedStickyTables}): a request of a key whose binding ended this way may land on another
 * real without breaking stickiness, because the live policy would not have kept it either.
 */
public enum BindingEnd {

    /** Removed for its key: {@code gtp-inspect} ends an IMSI's binding with its last session ({@code unstick-on-delete}). */
    RELEASED("released"),
    /** Unused for longer than the sticky idle time. */
    EXPIRED("expired"),
    /** Removed with every binding to its real (the real restarted and lost its sessions). */
    EVICTED("evicted"),
    /** Never stored: the table was full ({@code max-entries}). */
    REFUSED("refused");

    private final String tag;

    BindingEnd(String tag) {
        this.tag = tag;
    }

    /** The word of the JSON line's {@code binding} field and of the summary. */
    public String tag() {
        return tag;
    }
}
