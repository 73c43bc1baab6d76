package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * Removes a key's binding only if it is still to the real {@code index}: clearing the keys of a failed
 * real must not undo a rebind that another node made in the meantime. Returns whether it removed.
 */
record Release(int index) implements EntryProcessor<Object, Long, Boolean> {

    @Override
    public Boolean process(Map.Entry<Object, Long> entry) {
        Long current = entry.getValue();
        if (current != null && BindingValue.index(current) == index) {
            entry.setValue(null);
            return Boolean.TRUE;
        }
        return Boolean.FALSE;
    }

    static final class Serializer implements CompactSerializer<Release> {

        @Override
        public Release read(CompactReader in) {
            return new Release(in.readInt32("i"));
        }

        @Override
        public void write(CompactWriter out, Release release) {
            out.writeInt32("i", release.index);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Release2";
        }

        @Override
        public Class<Release> getCompactClass() {
            return Release.class;
        }
    }
}
