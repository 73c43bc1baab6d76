package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Restarts the idle time of a binding that is in use. If the key meanwhile holds another binding,
 * that one is returned unchanged (the caller follows it; null when the refresh applied); if the
 * cluster no longer holds the key at all (it expired or was lost while this node still used it),
 * the binding is claimed again, since a node is evidently still sending the subscriber there.
 */
record Refresh(StickyBinding binding, long ttlMillis)
        implements EntryProcessor<StickyKey, StickyBinding, StickyBinding> {

    @Override
    public StickyBinding process(Map.Entry<StickyKey, StickyBinding> entry) {
        StickyBinding current = entry.getValue();
        if (current != null && !current.equals(binding)) {
            return current;
        }
        // Writing the same value with a new TTL also publishes an update, which tells every node's
        // replica that the binding was refreshed, so they need not refresh it themselves.
        ((ExtendedMapEntry<StickyKey, StickyBinding>) entry).setValue(binding, ttlMillis, TimeUnit.MILLISECONDS);
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Refresh> {

        @Override
        public Refresh read(CompactReader in) {
            return new Refresh(in.readCompact("b"), in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, Refresh refresh) {
            out.writeCompact("b", refresh.binding);
            out.writeInt64("ttl", refresh.ttlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Refresh";
        }

        @Override
        public Class<Refresh> getCompactClass() {
            return Refresh.class;
        }
    }
}
