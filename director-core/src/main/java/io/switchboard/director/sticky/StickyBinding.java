package io.switchboard.director.sticky;

/** Where a key is stuck: the farm and the id ({@code address:port}) of the real. */
public record StickyBinding(String farm, String real) {
}
