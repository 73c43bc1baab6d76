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
 * Moves a key off a binding whose real can no longer serve it: replaces {@code expected} (or an
 * absent binding) with {@code replacement}. When another node already moved the key elsewhere, that
 * move holds and is returned (null when this rebind applied), so two nodes reassigning the same
 * subscriber still agree.
 */
record Rebind(StickyBinding expected, StickyBinding replacement, long ttlMillis)
        implements EntryProcessor<StickyKey, StickyBinding, StickyBinding> {

    @Override
    public StickyBinding process(Map.Entry<StickyKey, StickyBinding> entry) {
        StickyBinding current = entry.getValue();
        if (current != null && !current.equals(expected)) {
            return current;
        }
        ((ExtendedMapEntry<StickyKey, StickyBinding>) entry).setValue(replacement, ttlMillis, TimeUnit.MILLISECONDS);
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Rebind> {

        @Override
        public Rebind read(CompactReader in) {
            return new Rebind(in.readCompact("e"), in.readCompact("b"), in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, Rebind rebind) {
            out.writeCompact("e", rebind.expected);
            out.writeCompact("b", rebind.replacement);
            out.writeInt64("ttl", rebind.ttlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Rebind";
        }

        @Override
        public Class<Rebind> getCompactClass() {
            return Rebind.class;
        }
    }
}
