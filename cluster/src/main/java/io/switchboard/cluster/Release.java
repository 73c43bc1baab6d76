package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.Map;

/**
 * Removes a key's binding only if it is still {@code binding}: clearing the keys of a failed real
 * must not undo a rebind that another node made in the meantime. Returns whether it removed.
 */
record Release(StickyBinding binding) implements EntryProcessor<StickyKey, StickyBinding, Boolean> {

    @Override
    public Boolean process(Map.Entry<StickyKey, StickyBinding> entry) {
        if (binding.equals(entry.getValue())) {
            entry.setValue(null);
            return Boolean.TRUE;
        }
        return Boolean.FALSE;
    }

    static final class Serializer implements CompactSerializer<Release> {

        @Override
        public Release read(CompactReader in) {
            return new Release(in.readCompact("b"));
        }

        @Override
        public void write(CompactWriter out, Release release) {
            out.writeCompact("b", release.binding);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Release";
        }

        @Override
        public Class<Release> getCompactClass() {
            return Release.class;
        }
    }
}
