package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * Moves a key off a binding whose real can no longer serve it: replaces the real {@code expected} (or
 * an absent or expired binding) with {@code replacement}. When another node already moved the key
 * elsewhere, that move holds and is returned (null when this rebind applied), so two nodes
 * reassigning the same subscriber still agree. Deterministic, as {@link Claim}.
 */
record Rebind(int expected, int replacement, long nowMillis, long lifeMillis)
        implements EntryProcessor<Object, Long, Long> {

    @Override
    public Long process(Map.Entry<Object, Long> entry) {
        Long current = entry.getValue();
        if (current != null && BindingValue.index(current) != expected
                && !BindingValue.expired(current, lifeMillis, nowMillis)) {
            return current;
        }
        entry.setValue(BindingValue.shared(BindingValue.of(replacement, nowMillis)));
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Rebind> {

        @Override
        public Rebind read(CompactReader in) {
            return new Rebind(in.readInt32("e"), in.readInt32("i"), in.readInt64("t"), in.readInt64("life"));
        }

        @Override
        public void write(CompactWriter out, Rebind rebind) {
            out.writeInt32("e", rebind.expected);
            out.writeInt32("i", rebind.replacement);
            out.writeInt64("t", rebind.nowMillis);
            out.writeInt64("life", rebind.lifeMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Rebind2";
        }

        @Override
        public Class<Rebind> getCompactClass() {
            return Rebind.class;
        }
    }
}
