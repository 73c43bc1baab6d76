package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.ExtendedMapEntry;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Many {@link Claim}s of keys of one partition in one operation ({@code submitToKeys}), as
 * {@link ClaimSender} sends them: for each key, exactly what {@code Claim} does — bind unless a live
 * binding holds, answer with the binding that holds (nothing when the claim applied). The owner runs
 * the keys one after another on the partition's thread, so competing claims of one key, batched or
 * not, still apply first come first served, and the backup replays the same batch. The distinct
 * bindings are sent once each (a few reals serve every key), the keys by an index into them.
 */
final class ClaimBatch implements EntryProcessor<StickyKey, StickyBinding, StickyBinding> {

    private final StickyKey[] keys;
    private final StickyBinding[] bindings;
    /** keys[i] claims bindings[choice[i]]. */
    private final short[] choice;
    private final long ttlMillis;
    /** Built on the owner on first use: key → its binding. */
    private transient Map<StickyKey, StickyBinding> claims;

    ClaimBatch(StickyKey[] keys, StickyBinding[] bindings, short[] choice, long ttlMillis) {
        this.keys = keys;
        this.bindings = bindings;
        this.choice = choice;
        this.ttlMillis = ttlMillis;
    }

    @Override
    public StickyBinding process(Map.Entry<StickyKey, StickyBinding> entry) {
        StickyBinding current = entry.getValue();
        if (current != null) {
            return current;
        }
        StickyBinding binding = claims().get(entry.getKey());
        if (binding == null) {
            return null; // not a key of this batch (cannot happen: submitToKeys runs only its keys)
        }
        ((ExtendedMapEntry<StickyKey, StickyBinding>) entry).setValue(binding, ttlMillis, TimeUnit.MILLISECONDS);
        return null;
    }

    private Map<StickyKey, StickyBinding> claims() {
        if (claims == null) {
            Map<StickyKey, StickyBinding> byKey = new HashMap<>(keys.length * 2);
            for (int i = 0; i < keys.length; i++) {
                byKey.put(keys[i], bindings[choice[i]]);
            }
            claims = byKey;
        }
        return claims;
    }

    int size() {
        return keys.length;
    }

    @Override
    public String toString() {
        return "claim of " + keys.length + " keys";
    }

    static final class Serializer implements CompactSerializer<ClaimBatch> {

        @Override
        public ClaimBatch read(CompactReader in) {
            StickyKey[] keys = in.readArrayOfCompact("k", StickyKey.class);
            StickyBinding[] bindings = in.readArrayOfCompact("b", StickyBinding.class);
            short[] choice = in.readArrayOfInt16("c");
            if (keys == null || bindings == null || choice == null || choice.length != keys.length) {
                throw new IllegalArgumentException("a claim batch needs keys, bindings and a choice per key");
            }
            for (short c : choice) {
                if (c < 0 || c >= bindings.length) {
                    throw new IllegalArgumentException("claim batch: choice " + c + " of " + bindings.length);
                }
            }
            return new ClaimBatch(keys, bindings, choice, in.readInt64("ttl"));
        }

        @Override
        public void write(CompactWriter out, ClaimBatch batch) {
            out.writeArrayOfCompact("k", batch.keys);
            out.writeArrayOfCompact("b", batch.bindings);
            out.writeArrayOfInt16("c", batch.choice);
            out.writeInt64("ttl", batch.ttlMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.sticky.ClaimBatch";
        }

        @Override
        public Class<ClaimBatch> getCompactClass() {
            return ClaimBatch.class;
        }
    }
}
