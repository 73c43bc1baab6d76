package io.switchboard.cluster;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Arrays;

/**
 * A value of a {@link HazelcastSharedTable} as the cluster stores it: the plug-in's bytes (or a
 * removal), and which node wrote them with which of its write numbers, so that the owner applies one
 * node's writes of a key in the order the node made them (see {@link SharedWrite}) and the writer
 * can tell its own events from other nodes' changes.
 *
 * @param origin  the writer's cluster slot index
 * @param seq     the writer's write number, increasing per table
 * @param removed a removal kept for a while as a tombstone, so that an older write of the same node
 *                retried after it cannot bring the entry back
 */
record SharedEntry(int origin, long seq, byte[] value, boolean removed) {

    static SharedEntry tombstone(int origin, long seq) {
        return new SharedEntry(origin, seq, new byte[0], true);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SharedEntry e && e.origin == origin && e.seq == seq && e.removed == removed
                && Arrays.equals(e.value, value);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(seq) + Arrays.hashCode(value);
    }

    @Override
    public String toString() {
        return "SharedEntry[origin=" + origin + ", seq=" + seq + (removed ? ", removed]" : ", " + value.length + " bytes]");
    }

    static final class Serializer implements CompactSerializer<SharedEntry> {

        @Override
        public SharedEntry read(CompactReader in) {
            return new SharedEntry(in.readInt32("o"), in.readInt64("s"), in.readArrayOfInt8("v"), in.readBoolean("x"));
        }

        @Override
        public void write(CompactWriter out, SharedEntry e) {
            out.writeInt32("o", e.origin);
            out.writeInt64("s", e.seq);
            out.writeArrayOfInt8("v", e.value);
            out.writeBoolean("x", e.removed);
        }

        @Override
        public String getTypeName() {
            return "sb.shared.Entry";
        }

        @Override
        public Class<SharedEntry> getCompactClass() {
            return SharedEntry.class;
        }
    }
}
