package io.switchboard.director.overload;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.testing.ManualTicker;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The overload section's limits on the engine's clock: rates, bursts, the session reserve, the peers' cap. */
class AdmissionTest {

    private final ManualTicker ticker = new ManualTicker();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Admission admission(int newRate, int peerRate, int capacity, int reserve) {
        return Admission.of("vs", "gtp", new OverloadConfig(newRate, peerRate, capacity, reserve, Duration.ofSeconds(1)),
                registry, ticker);
    }

    private static InetAddress peer(int n) throws Exception {
        return InetAddress.getByAddress(new byte[] {10, 0, (byte) (n >> 8), (byte) n});
    }

    private double refused(String work, String limit) {
        return registry.get("switchboard.overload.refused").tag("work", work).tag("limit", limit).counter().count();
    }

    @Test
    void noSectionTakesEverything() throws Exception {
        assertThat(Admission.of("vs", "gtp", OverloadConfig.NONE, registry, ticker)).isSameAs(Admission.NONE);
        for (int i = 0; i < 10_000; i++) {
            assertThat(Admission.NONE.admit(false, peer(1), ticker.nanos())).isNull();
        }
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void newWorkIsAdmittedAtItsRateAfterABurst() throws Exception {
        Admission admission = admission(10, 0, 0, 20);
        int admitted = 0;
        for (int i = 0; i < 50; i++) {
            admitted += admission.admit(false, peer(1), ticker.nanos()) == null ? 1 : 0;
        }
        assertThat(admitted).as("a burst of 1 s at 10/s").isEqualTo(10);
        assertThat(refused("new", "new-rate")).isEqualTo(40);
        assertThat(admission.overloaded(ticker.nanos())).isTrue();
        assertThat(registry.get("switchboard.overload.active").gauge().value()).isEqualTo(1);

        ticker.advance(Duration.ofMillis(500));
        admitted = 0;
        for (int i = 0; i < 50; i++) {
            admitted += admission.admit(false, peer(1), ticker.nanos()) == null ? 1 : 0;
        }
        assertThat(admitted).as("half a second refills five").isEqualTo(5);
        assertThat(admission.admit(true, peer(1), ticker.nanos())).as("session work has no new-work rate").isNull();

        ticker.advance(Duration.ofMillis(1001));
        assertThat(admission.overloaded(ticker.nanos())).as("a second without refusal").isFalse();
        assertThat(registry.get("switchboard.overload.active").gauge().value()).isZero();
    }

    @Test
    void eachPeerHasItsOwnRate() throws Exception {
        Admission admission = admission(0, 3, 0, 20);
        for (int i = 0; i < 3; i++) {
            assertThat(admission.admit(false, peer(1), ticker.nanos())).isNull();
        }
        assertThat(admission.admit(false, peer(1), ticker.nanos())).isEqualTo(Admission.Limit.PEER_RATE);
        assertThat(admission.admit(false, peer(2), ticker.nanos())).as("another SGSN is not slowed").isNull();
    }

    @Test
    void forgedSourcesPastTheCapShareOneCell() throws Exception {
        Admission admission = admission(0, 1, 0, 20);
        int admitted = 0;
        for (int i = 0; i < PeerRates.MAX_PEERS + 100; i++) {
            admitted += admission.admit(false, peer(i), ticker.nanos()) == null ? 1 : 0;
        }
        assertThat(admitted).as("each tracked peer once, the untracked ones together once")
                .isEqualTo(PeerRates.MAX_PEERS + 1);
    }

    /**
     * Saturated (capacity 10/s, 30 % kept for session work): new work stops once 7 of the burst's 10
     * are used, session work goes on to 10, and only past that is session work shed.
     */
    @Test
    void saturatedTheDirectorRefusesNewWorkBeforeSheddingSessions() throws Exception {
        Admission admission = admission(0, 0, 10, 30);
        int newAdmitted = 0;
        for (int i = 0; i < 20; i++) {
            newAdmitted += admission.admit(false, peer(1), ticker.nanos()) == null ? 1 : 0;
        }
        assertThat(newAdmitted).isEqualTo(7);
        assertThat(refused("new", "capacity")).isEqualTo(13);
        int sessionsServed = 0;
        for (int i = 0; i < 5; i++) {
            sessionsServed += admission.admit(true, peer(1), ticker.nanos()) == null ? 1 : 0;
        }
        assertThat(sessionsServed).as("the reserve is the sessions'").isEqualTo(3);
        assertThat(refused("session", "capacity")).isEqualTo(2);
    }
}
