package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * Binds a key to the real {@code index} unless it holds a live binding, and returns the value that
 * holds instead (null when this claim applied). It runs on the key's partition owner, one operation
 * at a time per partition, so of two nodes claiming the same new key the first to arrive wins and the
 * second is told so: that is how first choices converge. The sender's wall-clock time
 * {@code nowMillis} is the binding's time ({@link BindingValue}); a binding past its life that the
 * owners' sweep has not removed yet counts as absent. The time travels in the processor rather than
 * being read on the owner because the backup runs the same processor: it must decide and write
 * exactly what the primary did.
 */
record Claim(int index, long nowMillis, long lifeMillis) implements EntryProcessor<Object, Long, Long> {

    @Override
    public Long process(Map.Entry<Object, Long> entry) {
        Long current = entry.getValue();
        if (current != null && !BindingValue.expired(current, lifeMillis, nowMillis)) {
            return current;
        }
        entry.setValue(BindingValue.shared(BindingValue.of(index, nowMillis)));
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Claim> {

        @Override
        public Claim read(CompactReader in) {
            return new Claim(in.readInt32("i"), in.readInt64("t"), in.readInt64("life"));
        }

        @Override
        public void write(CompactWriter out, Claim claim) {
            out.writeInt32("i", claim.index);
            out.writeInt64("t", claim.nowMillis);
            out.writeInt64("life", claim.lifeMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Claim2";
        }

        @Override
        public Class<Claim> getCompactClass() {
            return Claim.class;
        }
    }
}
