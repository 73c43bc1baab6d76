package io.switchboard.cluster;

import com.hazelcast.map.EntryProcessor;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import java.util.Map;

/**
 * One node's change of a real's shared state, applied on the key's partition owner so that changes
 * made on two nodes at once both land (one field each) instead of the last whole record winning.
 * Each change names its origin, so the entry event it causes tells every node what changed and who
 * already knows.
 */
record RealChange(Kind kind, int value, long atMillis, String origin)
        implements EntryProcessor<String, RealRecord, Void> {

    /** Wire codes: add, never renumber. */
    enum Kind {
        ADMIN(1), WEIGHT(2), FAILED(3), DRAIN(4);

        final byte code;

        Kind(int code) {
            this.code = (byte) code;
        }

        static Kind of(byte code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown real change code " + code);
        }
    }

    static RealChange admin(boolean inService, String origin) {
        return new RealChange(Kind.ADMIN, inService ? 1 : 0, 0, origin);
    }

    /** A drain, with its wall-clock deadline (0 for none). */
    static RealChange drain(long deadlineMillis, String origin) {
        return new RealChange(Kind.DRAIN, 0, deadlineMillis, origin);
    }

    static RealChange weight(int weight, String origin) {
        return new RealChange(Kind.WEIGHT, weight, 0, origin);
    }

    static RealChange failed(long atMillis, String origin) {
        return new RealChange(Kind.FAILED, 0, atMillis, origin);
    }

    @Override
    public Void process(Map.Entry<String, RealRecord> entry) {
        RealRecord r = entry.getValue() == null ? RealRecord.UNCHANGED : entry.getValue();
        entry.setValue(switch (kind) {
            case ADMIN -> new RealRecord(value != 0, r.adminChanges() + 1, r.weight(), r.failedAtMillis(), origin,
                    false, 0);
            case DRAIN -> new RealRecord(true, r.adminChanges() + 1, r.weight(), r.failedAtMillis(), origin,
                    true, atMillis);
            case WEIGHT -> new RealRecord(r.inService(), r.adminChanges(), value, r.failedAtMillis(), origin,
                    r.draining(), r.drainDeadlineMillis());
            case FAILED -> new RealRecord(r.inService(), r.adminChanges(), r.weight(),
                    Math.max(atMillis, r.failedAtMillis() + 1), origin, // always a change, so always an event
                    r.draining(), r.drainDeadlineMillis());
        });
        return null;
    }

    static final class Serializer implements CompactSerializer<RealChange> {

        @Override
        public RealChange read(CompactReader in) {
            return new RealChange(Kind.of(in.readInt8("k")), in.readInt32("v"), in.readInt64("t"), in.readString("o"));
        }

        @Override
        public void write(CompactWriter out, RealChange change) {
            out.writeInt8("k", change.kind.code);
            out.writeInt32("v", change.value);
            out.writeInt64("t", change.atMillis);
            out.writeString("o", change.origin);
        }

        @Override
        public String getTypeName() {
            return "sb.real.Change";
        }

        @Override
        public Class<RealChange> getCompactClass() {
            return RealChange.class;
        }
    }
}
