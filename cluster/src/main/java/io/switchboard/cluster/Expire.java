package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * The owners' expiry sweep (instead of Hazelcast's per-entry TTL, whose metadata costs ~100 B per
 * entry copy): run on every partition with {@code executeOnEntries}, it removes the bindings last
 * written before {@code cutoffMillis}. The cutoff is fixed by the sender, so the backups' run of the
 * same processor removes exactly what the primaries' did. Each removal is an entry event with the old
 * value, which every replica applies (and counts as an expiry: {@link ReplicaUpdater}).
 */
record Expire(long cutoffMillis) implements EntryProcessor<Object, Long, Object> {

    @Override
    public Object process(Map.Entry<Object, Long> entry) {
        Long current = entry.getValue();
        if (current != null && BindingValue.wallMillis(current) < cutoffMillis) {
            entry.setValue(null);
        }
        return null; // nothing to carry back: the sweep waits only for completion
    }

    static final class Serializer implements CompactSerializer<Expire> {

        @Override
        public Expire read(CompactReader in) {
            return new Expire(in.readInt64("cutoff"));
        }

        @Override
        public void write(CompactWriter out, Expire expire) {
            out.writeInt64("cutoff", expire.cutoffMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Expire";
        }

        @Override
        public Class<Expire> getCompactClass() {
            return Expire.class;
        }
    }
}
