package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The bookkeeping of {@link ClusterHealth}'s heartbeats, on clocks driven by hand. */
class ReplicationLagTest {

    private static final long SECOND = 1_000_000_000L;
    private final ReplicationLag lag = new ReplicationLag();

    @Test
    void lagIsArrivalMinusSendingAndAgeCountsOnTheLocalMonotonicClock() {
        assertThat(lag.knows("b")).isFalse();
        assertThat(lag.lagSeconds("b")).isNaN();
        assertThat(lag.ageSeconds("b", 0)).isNaN();

        assertThat(lag.heard("b", "u1", 1, 10_000, 10_012, 5 * SECOND)).isEqualTo(12);
        assertThat(lag.knows("b")).isTrue();
        assertThat(lag.lagSeconds("b")).isEqualTo(0.012);
        assertThat(lag.ageSeconds("b", 5 * SECOND)).isZero();
        // No heartbeat for 3.5 s: the age grows whatever the wall clocks say.
        assertThat(lag.ageSeconds("b", 8 * SECOND + SECOND / 2)).isEqualTo(3.5);

        lag.heard("b", "u1", 2, 11_000, 11_003, 9 * SECOND);
        assertThat(lag.lagSeconds("b")).isEqualTo(0.003);
        assertThat(lag.ageSeconds("b", 9 * SECOND)).isZero();
        assertThat(lag.missed("b")).isZero();
    }

    @Test
    void aPeerClockAheadGivesZeroNotANegativeLag() {
        assertThat(lag.heard("b", "u1", 1, 10_050, 10_000, 0)).isZero();
        assertThat(lag.lagSeconds("b")).isZero();
    }

    @Test
    void gapsInTheSequenceAreMissedHeartbeatsAndLateOnesChangeNothing() {
        lag.heard("b", "u1", 1, 1_000, 1_001, SECOND);
        lag.heard("b", "u1", 4, 4_000, 4_002, 4 * SECOND); // 2 and 3 never came
        assertThat(lag.missed("b")).isEqualTo(2);
        lag.heard("b", "u1", 3, 3_000, 4_500, 5 * SECOND); // late: neither lag nor age changes
        assertThat(lag.lagSeconds("b")).isEqualTo(0.002);
        assertThat(lag.ageSeconds("b", 5 * SECOND)).isEqualTo(1.0);
        assertThat(lag.missed("b")).isEqualTo(2);
    }

    @Test
    void aRestartedPeerStartsItsSequenceAgainWithoutCountingMissed() {
        lag.heard("b", "u1", 40, 40_000, 40_001, SECOND);
        lag.heard("b", "u2", 1, 50_000, 50_004, 11 * SECOND);
        assertThat(lag.missed("b")).isZero();
        assertThat(lag.lagSeconds("b")).isEqualTo(0.004);
        lag.heard("b", "u2", 2, 51_000, 51_001, 12 * SECOND);
        assertThat(lag.lagSeconds("b")).isEqualTo(0.001);
    }

    @Test
    void peersAreKeptApartAndForgotten() {
        lag.heard("b", "u1", 1, 1_000, 1_010, SECOND);
        lag.heard("c", "u2", 1, 1_000, 1_020, SECOND);
        assertThat(lag.peers()).containsExactlyInAnyOrder("b", "c");
        assertThat(lag.lagSeconds("c")).isEqualTo(0.020);
        lag.forget("b");
        assertThat(lag.peers()).containsExactly("c");
        assertThat(lag.lagSeconds("b")).isNaN();
    }
}
