package io.switchboard.director.spi;

import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;

/**
 * What a plug-in does to its virtual server's sticky table ({@link PluginContext#sticky()}): learn
 * a binding from an answer (RADIUS Framed-IP-Address), move it, end it (RADIUS Accounting-Stop and
 * Accounting-On/Off, a subscriber's last GTP session). Looking keys up, expiry and the purge of a
 * real's bindings are the engine's. Every method may be called from any event loop and none blocks.
 */
public interface StickyBindings {

    /**
     * Binds {@code key} unless a live binding exists, and returns the binding that holds: the new
     * one, or the one another event loop or node made first. Callers must use the returned binding
     * so that concurrent first choices converge.
     */
    StickyBinding bindIfAbsent(StickyKey key, StickyBinding binding, long nowNanos);

    /**
     * Moves {@code key} from {@code expected} (whose real can no longer serve it) to
     * {@code replacement}; returns the binding that holds afterwards.
     */
    StickyBinding rebind(StickyKey key, StickyBinding expected, StickyBinding replacement, long nowNanos);

    /** Removes the binding of {@code key}; true if there was one. */
    boolean remove(StickyKey key);
}
