package io.switchboard.cluster;

import io.switchboard.director.sticky.StickyBinding;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * One key's binding as this node's replica of a {@link HazelcastStickyTable} knows it.
 * {@code writtenNanos} is when the cluster last (re)started the binding's TTL as far as this node
 * knows; identity matters: an answer from the cluster replaces the entry it answers only if nothing
 * newer has replaced it meanwhile.
 */
final class LocalBinding {

    static final AtomicLongFieldUpdater<LocalBinding> WRITTEN =
            AtomicLongFieldUpdater.newUpdater(LocalBinding.class, "writtenNanos");

    final StickyBinding binding;
    volatile long writtenNanos;

    LocalBinding(StickyBinding binding, long writtenNanos) {
        this.binding = binding;
        this.writtenNanos = writtenNanos;
    }
}
