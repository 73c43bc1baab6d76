package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ReplicaTest {

    private static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT);
    private static final StickyKind CALLING = StickyKind.of("calling-station-id", StickyKind.Format.TEXT);
    private static final StickyBinding A = new StickyBinding("ggsn", "10.0.0.1:2123");
    private static final StickyBinding B = new StickyBinding("ggsn", "10.0.0.2:2123");
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static StickyKey key(StickyKind kind, String text) {
        return StickyKey.of(kind, text.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void anEntryIsTheBindingAndItsTimeToTheMillisecond() {
        long now = -5_000_000_000L; // the monotonic clock may be negative
        Replica replica = new Replica(now);
        long entry = replica.entry(A, now + 7 * MS + 999_999);
        assertThat(entry).isNotZero();
        assertThat(replica.binding(entry)).isSameAs(A);
        assertThat(replica.writtenNanos(entry)).isEqualTo(now + 7 * MS);
        long later = replica.rewritten(entry, now + 20 * MS);
        assertThat(replica.binding(later)).isSameAs(A);
        assertThat(replica.writtenNanos(later)).isEqualTo(now + 20 * MS);
        assertThat(Replica.sameBinding(entry, later)).isTrue();
        assertThat(Replica.sameBinding(entry, replica.entry(B, now))).isFalse();
        // The same millisecond is not "before": a catch-up leaves such an entry alone.
        assertThat(replica.writtenBefore(later, now + 20 * MS + 500_000)).isFalse();
        assertThat(replica.writtenBefore(later, now + 21 * MS)).isTrue();
        // An equal binding (another instance) is the same id; the replica keeps the first instance.
        assertThat(replica.binding(replica.entry(new StickyBinding("ggsn", "10.0.0.1:2123"), now))).isSameAs(A);
        assertThat(replica.holding(A).test(entry)).isTrue();
        assertThat(replica.holding(B).test(entry)).isFalse();
        assertThat(replica.holding(new StickyBinding("never", "seen")).test(entry)).isFalse();
        assertThat(replica.holding(null).test(entry)).isFalse();
    }

    @Test
    void imsisAndOtherKeysAreHeldAndFoundByEitherForm() {
        long now = 0;
        Replica replica = new Replica(now);
        StickyKey imsi = key(IMSI, "262011234567890");
        StickyKey calling = key(CALLING, "262011234567890"); // the same digits, another kind: another key
        StickyKey longImsi = key(IMSI, "2620112345678901"); // 16 digits: not packed
        long a = replica.entry(A, now);
        long b = replica.entry(B, now);
        assertThat(Replica.mapKey(imsi)).isEqualTo(0x62021132547698F0L);
        assertThat(Replica.mapKey(calling)).isSameAs(calling);
        assertThat(Replica.mapKey(longImsi)).isSameAs(longImsi);

        replica.update(Replica.mapKey(imsi), current -> a);
        replica.update(Replica.mapKey(calling), current -> b);
        replica.update(Replica.mapKey(longImsi), current -> a);
        assertThat(replica.get(imsi)).isEqualTo(a);
        assertThat(replica.get(calling)).isEqualTo(b);
        assertThat(replica.get(longImsi)).isEqualTo(a);
        assertThat(replica.size()).isEqualTo(3);

        assertThat(replica.compareAndSet(imsi, b, a)).isFalse();
        assertThat(replica.compareAndSet(imsi, a, b)).isTrue();
        assertThat(replica.compareAndSet(calling, b, a)).isTrue();
        assertThat(replica.get(imsi)).isEqualTo(b);
        assertThat(replica.get(calling)).isEqualTo(a);

        Map<StickyKey, Long> all = new HashMap<>();
        replica.forEach((mapKey, entry) -> all.put(replica.stickyKey(mapKey), entry));
        assertThat(all).containsOnly(Map.entry(imsi, b), Map.entry(calling, a), Map.entry(longImsi, a));
        assertThat(replica.count(replica.holding(A))).isEqualTo(2);

        assertThat(replica.remove(Replica.mapKey(imsi), a)).isFalse();
        assertThat(replica.remove(Replica.mapKey(imsi))).isEqualTo(b);
        assertThat(replica.remove(Replica.mapKey(imsi))).isZero();
        assertThat(replica.removeIf(replica.holding(A))).isEqualTo(2);
        assertThat(replica.size()).isZero();
    }
}
