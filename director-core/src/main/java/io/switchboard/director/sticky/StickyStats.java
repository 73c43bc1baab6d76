package io.switchboard.director.sticky;

/** Counters of a sticky table, since start. */
public record StickyStats(long hits, long misses, long bound, long expired, long refusedFull) {
}
