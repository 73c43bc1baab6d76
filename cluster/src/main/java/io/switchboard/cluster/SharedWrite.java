package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Writes a {@link SharedEntry} (a value or a tombstone) on the key's owner unless the key holds a
 * later write of the same node. Hazelcast retries an invocation that meets a migrating partition,
 * so two asynchronous writes of one node can reach the owner in the other order; this keeps a
 * node's writes of a key in the order it made them. Writes of different nodes apply as they arrive.
 */
record SharedWrite(SharedEntry entry, long tombstoneTtlMillis) implements EntryProcessor<byte[], SharedEntry, Boolean> {

    @Override
    public Boolean process(Map.Entry<byte[], SharedEntry> e) {
        SharedEntry current = e.getValue();
        if (current != null && current.origin() == entry.origin() && current.seq() >= entry.seq()) {
            return false;
        }
        if (entry.removed()) {
            ((ExtendedMapEntry<byte[], SharedEntry>) e).setValue(entry, tombstoneTtlMillis, TimeUnit.MILLISECONDS);
        } else {
            // TTL 0, infinite: a value lives until it is removed, whatever TTL a tombstone before it had.
            ((ExtendedMapEntry<byte[], SharedEntry>) e).setValue(entry, 0, TimeUnit.MILLISECONDS);
        }
        return true;
    }

    static final class Serializer implements CompactSerializer<SharedWrite> {

        @Override
        public SharedWrite read(CompactReader in) {
            return new SharedWrite(in.readCompact("e"), in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, SharedWrite w) {
            out.writeCompact("e", w.entry);
            out.writeInt64("ttl", w.tombstoneTtlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.shared.Write";
        }

        @Override
        public Class<SharedWrite> getCompactClass() {
            return SharedWrite.class;
        }
    }
}
