package io.switchboard.cluster;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.spi.merge.MergingValue;
import com.hazelcast.spi.merge.SplitBrainMergePolicy;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Hazelcast's {@code PutIfAbsent} merge policy for the maps whose first answer must stand (sticky
 * bindings, plug-ins' sessions), counting what each merge of a healed split brain decided: a key only
 * the smaller side held is <em>added</em>; a key both sides held with the same value is <em>same</em>;
 * a key both sides held with <em>two answers</em> (a subscriber bound to one real on one side and to
 * another on the other) keeps the larger side's value and counts as <em>conflict</em> — those are the
 * subscribers whose traffic on the smaller side moves once after the merge.
 *
 * <p>Hazelcast runs the policy on the partition owners of the merged cluster, one entry of the smaller
 * side at a time, so each node counts the entries of the partitions it owns; the cluster's figure is
 * the sum over the nodes ({@code switchboard_cluster_merged_entries_total}). One subclass per kind of
 * map, because Hazelcast makes one instance per policy class name and tells it nothing of the map.
 *
 * <p>It implements {@link SplitBrainMergePolicy} itself instead of extending Hazelcast's class, which is
 * an {@code IdentifiedDataSerializable} and would arrive at the partition owner as the plain policy:
 * this one carries no state and travels by class name.
 */
public abstract class CountedPutIfAbsent<V, T extends MergingValue<V>> implements SplitBrainMergePolicy<V, T, Object> {

    /** What merges decided so far in this JVM for one kind of map. */
    public static final class Outcomes {
        private final LongAdder added = new LongAdder();
        private final LongAdder same = new LongAdder();
        private final LongAdder conflicts = new LongAdder();

        public long added() {
            return added.sum();
        }

        public long same() {
            return same.sum();
        }

        public long conflicts() {
            return conflicts.sum();
        }
    }

    /** The sticky tables' maps. */
    public static final Outcomes BINDINGS = new Outcomes();
    /** The plug-ins' shared tables (sessions). */
    public static final Outcomes SESSIONS = new Outcomes();

    protected abstract Outcomes outcomes();

    @Override
    public Object merge(T merging, T existing) {
        if (existing == null) {
            outcomes().added.increment();
            return merging.getRawValue();
        }
        // Raw values are the serialized bytes (the maps are BINARY): equal bytes, equal binding.
        (Objects.equals(existing.getRawValue(), merging.getRawValue()) ? outcomes().same : outcomes().conflicts)
                .increment();
        return existing.getRawValue();
    }

    @Override
    public void writeData(ObjectDataOutput out) {
        // stateless
    }

    @Override
    public void readData(ObjectDataInput in) {
        // stateless
    }

    /**
     * For the sticky tables, whose values are a real's index and a time ({@link BindingValue}): two
     * sides holding the same real for a key agree (the later time stands, so a binding refreshed on
     * either side lives on), whatever their times; only two reals are a conflict.
     */
    public static final class Bindings<V, T extends MergingValue<V>> extends CountedPutIfAbsent<V, T> {
        @Override
        protected Outcomes outcomes() {
            return BINDINGS;
        }

        @Override
        public Object merge(T merging, T existing) {
            if (existing == null) {
                BINDINGS.added.increment();
                return merging.getRawValue();
            }
            Object theirs = merging.getValue();
            Object ours = existing.getValue();
            if (theirs instanceof Long t && ours instanceof Long o) {
                if (BindingValue.index(t) != BindingValue.index(o)) {
                    BINDINGS.conflicts.increment();
                    return existing.getRawValue();
                }
                BINDINGS.same.increment();
                return t > o ? merging.getRawValue() : existing.getRawValue(); // same index: the later time
            }
            return super.merge(merging, existing);
        }
    }

    /** For the plug-ins' shared tables. */
    public static final class Sessions<V, T extends MergingValue<V>> extends CountedPutIfAbsent<V, T> {
        @Override
        protected Outcomes outcomes() {
            return SESSIONS;
        }
    }
}
