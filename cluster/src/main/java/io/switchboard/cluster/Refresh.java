package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * Restarts the idle time of a binding that is in use: writes it again with the time {@code nowMillis}.
 * If the key meanwhile holds another live binding, that one is returned unchanged (the caller follows
 * it; null when the refresh applied); if the cluster no longer holds the key (it expired or was lost
 * while this node still used it), the binding is claimed again, since a node is evidently still
 * sending the subscriber there. Deterministic (the time travels with it), so the backup's run of it
 * writes what the primary's did.
 */
record Refresh(int index, long nowMillis, long lifeMillis) implements EntryProcessor<Object, Long, Long> {

    @Override
    public Long process(Map.Entry<Object, Long> entry) {
        Long current = entry.getValue();
        if (current != null && BindingValue.index(current) != index
                && !BindingValue.expired(current, lifeMillis, nowMillis)) {
            return current;
        }
        if (current != null && BindingValue.index(current) == index && BindingValue.wallMillis(current) >= nowMillis) {
            return null; // a newer write of the same binding is there already (another node's refresh)
        }
        // The new time is an update event to every node's replica: they learn that the binding was
        // refreshed, so they need not refresh it themselves.
        entry.setValue(BindingValue.shared(BindingValue.of(index, nowMillis)));
        return null; // applied as sent: no value to carry back (HazelcastStickyTable#follow)
    }

    static final class Serializer implements CompactSerializer<Refresh> {

        @Override
        public Refresh read(CompactReader in) {
            return new Refresh(in.readInt32("i"), in.readInt64("t"), in.readInt64("life"));
        }

        @Override
        public void write(CompactWriter out, Refresh refresh) {
            out.writeInt32("i", refresh.index);
            out.writeInt64("t", refresh.nowMillis);
            out.writeInt64("life", refresh.lifeMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.Refresh2";
        }

        @Override
        public Class<Refresh> getCompactClass() {
            return Refresh.class;
        }
    }
}
