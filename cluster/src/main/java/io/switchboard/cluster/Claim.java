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
 * Binds a key unless it holds a live binding, and returns the binding that holds instead (null when
 * this claim applied). It runs on the key's partition owner, one operation at a time per partition,
 * so of two nodes claiming the same new key the first to arrive wins and the second is told so:
 * that is how first choices converge.
 */
record Claim(StickyBinding binding, long ttlMillis)
        implements EntryProcessor<StickyKey, StickyBinding, StickyBinding> {

    @Override
    public StickyBinding process(Map.Entry<StickyKey, StickyBinding> entry) {
        StickyBinding current = entry.getValue();
        if (current != null) {
            return current;
        }
        ((ExtendedMapEntry<StickyKey, StickyBinding>) entry).setValue(binding, ttlMillis, TimeUnit.MILLISECONDS);
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Claim> {

        @Override
        public Claim read(CompactReader in) {
            return new Claim(in.readCompact("b"), in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, Claim claim) {
            out.writeCompact("b", claim.binding);
            out.writeInt64("ttl", claim.ttlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Claim";
        }

        @Override
        public Class<Claim> getCompactClass() {
            return Claim.class;
        }
    }
}
