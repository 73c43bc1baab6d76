package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.sticky.StickyTableFactory;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** How a binding ended, as {@link ObservedStickyTables} sees it, and what {@link StickinessAudit} makes of it. */
class StickinessAuditTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long IDLE = 60 * SECOND;

    private final ObservedStickyTables tables = new ObservedStickyTables(StickyTableFactory.IN_MEMORY);
    private final StickyTable table = tables.create("t", Duration.ofNanos(IDLE), 2);
    private final RealServer a = real("10.0.0.2", 0);
    private final RealServer b = real("10.0.0.3", 1);
    private final StickyKey key = imsi("001010000000001");

    private static RealServer real(String address, int slot) {
        try {
            return new RealServer("f", new RealConfig(InetAddress.getByName(address), 2123, 1, OptionalInt.empty(), true),
                    FailureDetection.DEFAULT, slot);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static StickyKey imsi(String digits) {
        return StickyKey.of(StickyKind.of("imsi", StickyKind.Format.TEXT), digits.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void eachWayABindingEndsIsToldApart() {
        table.bindIfAbsent(key, a.binding(), 1);
        assertThat(ObservedStickyTables.ended(table, key, 2)).isNull();
        table.remove(key);
        assertThat(ObservedStickyTables.ended(table, key, 3)).isEqualTo(BindingEnd.RELEASED);

        table.bindIfAbsent(key, a.binding(), 4);
        assertThat(ObservedStickyTables.ended(table, key, 5)).isNull();
        table.removeBoundTo("f", a.id());
        assertThat(ObservedStickyTables.ended(table, key, 6)).isEqualTo(BindingEnd.EVICTED);

        table.bindIfAbsent(key, a.binding(), 10);
        assertThat(ObservedStickyTables.ended(table, key, 10 + IDLE)).isNull();
        assertThat(ObservedStickyTables.ended(table, key, 11 + IDLE)).isEqualTo(BindingEnd.EXPIRED);
        assertThat(table.lookup(key, 11 + IDLE)).isNull();
        assertThat(ObservedStickyTables.ended(table, key, 12 + IDLE)).isEqualTo(BindingEnd.EXPIRED);

        assertThat(ObservedStickyTables.drainBound(table)).containsExactly(key, key, key);
        assertThat(ObservedStickyTables.drainBound(table)).isEmpty();
    }

    @Test
    void aBindAFullTableRefusesIsRefused() {
        table.bindIfAbsent(imsi("2"), a.binding(), 1);
        table.bindIfAbsent(imsi("3"), a.binding(), 1);
        table.bindIfAbsent(key, a.binding(), 1); // max-entries 2: full
        assertThat(ObservedStickyTables.ended(table, key, 2)).isEqualTo(BindingEnd.REFUSED);
        assertThat(ObservedStickyTables.drainBound(table)).containsExactly(imsi("2"), imsi("3"));
    }

    @Test
    void theRunsSweepOnCaptureTimeExpiresWhatWasIdleAndTheDirectorsTimerDoesNothing() {
        StickyKey later = imsi("001010000000002");
        table.bindIfAbsent(key, a.binding(), 1);
        table.bindIfAbsent(later, a.binding(), 2);
        table.expire(2 + IDLE); // the director's real-time timer
        assertThat(table.size()).isEqualTo(2);
        tables.sweep(2 + IDLE); // key idle for IDLE + 1, later for IDLE: not yet idle
        assertThat(ObservedStickyTables.ended(table, key, 2 + IDLE)).isEqualTo(BindingEnd.EXPIRED);
        assertThat(table.size()).isEqualTo(1);
        tables.sweep(3 + IDLE); // within 5 s of capture time since the last sweep: no sweep
        assertThat(table.size()).isEqualTo(1);
        tables.sweep(2 + IDLE + ObservedStickyTables.SWEEP_NANOS);
        assertThat(table.size()).isZero();
        assertThat(ObservedStickyTables.ended(table, later, 3 + IDLE + ObservedStickyTables.SWEEP_NANOS))
                .isEqualTo(BindingEnd.EXPIRED);
    }

    @Test
    void onlyALiveBindingToARealThatServesMakesAMoveAViolation() {
        StickinessAudit audit = new StickinessAudit();
        assertThat(audit.judge(table, key, null, a, 1, IDLE)).isEqualTo(new StickinessAudit.Verdict(false, null));
        assertThat(audit.judge(table, key, null, b, 2, IDLE)).isEqualTo(new StickinessAudit.Verdict(true, null));
        assertThat(audit.judge(table, key, BindingEnd.RELEASED, a, 3, IDLE))
                .isEqualTo(new StickinessAudit.Verdict(false, BindingEnd.RELEASED));
        a.takeOutOfService();
        assertThat(audit.judge(table, key, null, b, 4, IDLE).violation()).isFalse();
        assertThat(audit.judge(table, key, null, a, 5 + IDLE, IDLE).violation()).isFalse(); // idle since 4
        assertThat(audit.violations()).isEqualTo(1);
        assertThat(audit.bindingsEnded()).containsEntry("released", 1).hasSize(1);
    }
}
