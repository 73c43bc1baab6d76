package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gtp-inspect} over a bad network (issue 22 point 3): loss, duplication and reordering on both
 * sides of the director ({@link ImpairedLink}s in this JVM; {@link GtpNetnsImpairmentIT} does it in the
 * kernel), {@link Mme} stand-ins that retransmit as TS 29.274 §7.6 has them (T3-RESPONSE, N3-REQUESTS,
 * the same sequence), PGW stand-ins
 * that keep sessions ({@link SessionKeepingPgw}). Each subscriber attaches, attaches again (the
 * second create replaces the first, TS 29.274 §7.2.1) and detaches. Afterwards the director holds
 * exactly the sessions the PGWs hold, every create of a subscriber reached one PGW, and the
 * director recognised the retransmissions and duplicates it was sent.
 */
class GtpImpairmentIT {

    private static final int REQUESTERS = 3;
    private static final int SUBSCRIBERS_EACH = 20;
    private static final double LOSS = 0.05;
    private static final double DUPLICATE = 0.05;
    private static final double REORDER = 0.10;

    private final List<AutoCloseable> open = new ArrayList<>();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void close() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        open.add(closeable);
        return closeable;
    }

    @Test
    void sessionsStayConsistentWithThePgwsThroughLossDuplicationAndReordering() throws Exception {
        List<SessionKeepingPgw> pgws = new ArrayList<>();
        List<RealConfig> reals = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            SessionKeepingPgw pgw = opened(new SessionKeepingPgw());
            pgws.add(pgw);
            ImpairedLink toPgw = opened(new ImpairedLink("127.0.0.1", pgw.address(), LOSS, DUPLICATE, REORDER));
            reals.add(new RealConfig(toPgw.address().getAddress(), toPgw.address().getPort(), 1, OptionalInt.empty(), true));
        }
        // In-band failure detection off in effect: lost answers must not fail the PGWs here.
        FarmConfig farm = new FarmConfig("pgw", PredictorKind.ROUNDROBIN,
                new FailureDetection(1_000_000, 1_000, Duration.ofMinutes(1)), reals, Optional.empty());
        VirtualServerConfig server = GtpTestBed.server("gtp-c", new InetSocketAddress("127.0.0.1", 0), "gtp-inspect",
                "pgw", GtpOptions.DEFAULT);
        GtpTestBed bed = opened(GtpTestBed.start(Map.of("pgw", List.of()), Map.of("pgw", farm), Map.of("gtp-c", server),
                new GtpInspectService(), registry));
        ImpairedLink toDirector = opened(new ImpairedLink("127.0.0.1", bed.vip("gtp-c"), LOSS, DUPLICATE, REORDER));

        int[] run = Mme.run(InetAddress.getByName("127.0.0.1"), toDirector.address(), REQUESTERS, SUBSCRIBERS_EACH);
        int detached = run[0];
        int failedExchanges = run[1];

        // Whatever got lost on the way, the director's sessions are the PGWs' sessions, but for one kind of
        // exchange: a create or delete the MME gave up on after N3 retransmissions (TS 29.274 §7.6) may have
        // reached its PGW with every answer lost on the way back (all five, about 2 in 10,000 exchanges at
        // these rates: a few runs in a hundred). The PGW then holds a session the director never learnt (or the
        // director one the PGW deleted) until an idle timer ends it, one session per such exchange at most.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(Math.abs(directorSessions() - pgws.stream().mapToInt(p -> p.sessions.size()).sum()))
                        .as("sessions apart (director against PGWs), with %d exchanges given up", failedExchanges)
                        .isLessThanOrEqualTo(failedExchanges));
        for (int i = 0; i < REQUESTERS * SUBSCRIBERS_EACH; i++) {
            String imsi = Mme.imsi(i);
            long at = pgws.stream().filter(p -> p.createsByImsi.containsKey(imsi)).count();
            assertThat(at).as("PGWs that saw creates of %s", imsi).isLessThanOrEqualTo(1);
        }
        double recognised = registry.get("switchboard.requests.retransmitted").counter().count();
        System.out.printf("impairment: %d of %d detached, %d exchanges failed after N3 retries, %.0f retransmissions"
                        + " recognised, PGWs saw %d retransmissions, links dropped %d duplicated %d delayed %d,"
                        + " %d sessions left%n", detached, REQUESTERS * SUBSCRIBERS_EACH, failedExchanges, recognised,
                pgws.stream().mapToInt(p -> p.retransmissions.get()).sum(),
                open.stream().filter(c -> c instanceof ImpairedLink).mapToLong(c -> ((ImpairedLink) c).dropped.get()).sum(),
                open.stream().filter(c -> c instanceof ImpairedLink).mapToLong(c -> ((ImpairedLink) c).duplicated.get()).sum(),
                open.stream().filter(c -> c instanceof ImpairedLink).mapToLong(c -> ((ImpairedLink) c).delayed.get()).sum(),
                directorSessions());
        assertThat(recognised).as("retransmissions and duplicates the director recognised").isPositive();
        assertThat(detached).as("subscribers detached (the rest lost an exchange N3 times)")
                .isGreaterThan(REQUESTERS * SUBSCRIBERS_EACH * 8 / 10);
    }

    private int directorSessions() {
        return (int) registry.find("switchboard.gtp.sessions.open").gauges().stream().mapToDouble(Gauge::value).sum();
    }
}
