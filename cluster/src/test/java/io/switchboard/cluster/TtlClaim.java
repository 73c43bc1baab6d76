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
 * The benchmark's raw baseline (issue 23): the claim the table used before its values became a real
 * index and a time — a small Compact value (farm and real as strings) written with Hazelcast's
 * per-entry TTL — kept so that the raw claim rate stays the figure the target was set against.
 */
record TtlClaim(StickyBinding binding, long ttlMillis)
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

    static final class Serializer implements CompactSerializer<TtlClaim> {

        @Override
        public TtlClaim read(CompactReader in) {
            return new TtlClaim(in.readCompact("b"), in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, TtlClaim claim) {
            out.writeCompact("b", claim.binding);
            out.writeInt64("ttl", claim.ttlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.test.TtlClaim";
        }

        @Override
        public Class<TtlClaim> getCompactClass() {
            return TtlClaim.class;
        }
    }
}
