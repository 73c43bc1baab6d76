package io.switchboard.cluster;

import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import com.hazelcast.nio.serialization.FieldKind;

/**
 * The cluster's shared state of one real: what an operator or a feedback agent set on any node, and
 * the last failure any node detected. The real's full state machine stays local to each node (its
 * connections, throttles and test requests are per node); this is what every node must agree on.
 *
 * @param inService      the last administrative command: {@code inservice} or {@code drain} (true) or
 *                       {@code outofservice}
 * @param adminChanges   how many administrative commands were given, so that a repeated
 *                       {@code inservice} (which forces a FAILED real back) reaches every node even
 *                       though {@code inService} did not change
 * @param weight         the dynamic weight last set, 0..255; -1 while none was set (the configured one holds)
 * @param failedAtMillis wall-clock time of the last failure detected by a node; 0 for never
 * @param origin         the member (UUID) that made the last change, which ignores its own event
 * @param draining       the last administrative command was {@code drain}
 * @param drainDeadlineMillis that drain's wall-clock deadline, 0 for none
 */
record RealRecord(boolean inService, int adminChanges, int weight, long failedAtMillis, String origin,
        boolean draining, long drainDeadlineMillis) {

    /** A real nobody has changed: as configured. */
    static final RealRecord UNCHANGED = new RealRecord(true, 0, -1, 0, "", false, 0);

    static final class Serializer implements CompactSerializer<RealRecord> {

        @Override
        public RealRecord read(CompactReader in) {
            // A record written by a build without drains has no drain fields: not draining.
            boolean drains = in.getFieldKind("d") == FieldKind.BOOLEAN;
            return new RealRecord(in.readBoolean("in"), in.readInt32("n"), in.readInt32("w"), in.readInt64("f"),
                    in.readString("o"), drains && in.readBoolean("d"), drains ? in.readInt64("dd") : 0);
        }

        @Override
        public void write(CompactWriter out, RealRecord r) {
            out.writeBoolean("in", r.inService);
            out.writeInt32("n", r.adminChanges);
            out.writeInt32("w", r.weight);
            out.writeInt64("f", r.failedAtMillis);
            out.writeString("o", r.origin);
            out.writeBoolean("d", r.draining);
            out.writeInt64("dd", r.drainDeadlineMillis);
        }

        @Override
        public String getTypeName() {
            return "sb.real.Record";
        }

        @Override
        public Class<RealRecord> getCompactClass() {
            return RealRecord.class;
        }
    }
}
