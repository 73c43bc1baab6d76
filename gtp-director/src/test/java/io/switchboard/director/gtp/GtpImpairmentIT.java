package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gtp-inspect} over a bad network (issue 22 point 3): loss, duplication and reordering on both
 * sides of the director ({@link ImpairedLink}s, since this kernel has no netem), MME stand-ins that
 * retransmit as TS 29.274 §7.6 has them (T3-RESPONSE, N3-REQUESTS, the same sequence), PGW stand-ins
 * that keep sessions ({@link SessionKeepingPgw}). Each subscriber attaches, attaches again (the
 * second create replaces the first, TS 29.274 §7.2.1) and detaches. Afterwards the director holds
 * exactly the sessions the PGWs hold, every create of a subscriber reached one PGW, and the
 * director recognised the retransmissions and duplicates it was sent.
 */
class GtpImpairmentIT {

    private static final int REQUESTERS = 3;
    private static final int SUBSCRIBERS_EACH = 20;
    /** TS 29.274 leaves T3-RESPONSE to the operator (3 s is common); 1 s keeps the test short on a loaded machine. */
    private static final Duration T3 = Duration.ofSeconds(1);
    private static final int N3 = 4;
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

        ExecutorService mmes = Executors.newFixedThreadPool(REQUESTERS);
        open.add(mmes::shutdownNow);
        List<Future<int[]>> runs = new ArrayList<>();
        for (int m = 0; m < REQUESTERS; m++) {
            int first = m * SUBSCRIBERS_EACH;
            runs.add(mmes.submit(() -> new Mme(toDirector.address()).attachAndDetach(first, SUBSCRIBERS_EACH)));
        }
        int detached = 0;
        int failedExchanges = 0;
        for (Future<int[]> run : runs) {
            int[] r = run.get(5, TimeUnit.MINUTES);
            detached += r[0];
            failedExchanges += r[1];
        }

        // Whatever got lost on the way, the director's sessions are the PGWs' sessions.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertThat(directorSessions()).isEqualTo(pgws.stream().mapToInt(p -> p.sessions.size()).sum()));
        for (int i = 0; i < REQUESTERS * SUBSCRIBERS_EACH; i++) {
            String imsi = imsi(i);
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

    private static String imsi(int i) {
        return "26242" + (1_000_000_000L + i);
    }

    /** An MME stand-in on a socket of its own: one subscriber at a time, retransmitting as TS 29.274 §7.6. */
    private static final class Mme {
        private final DatagramSocket socket;
        private final InetSocketAddress to;
        private int sequence = 1;

        Mme(InetSocketAddress to) throws IOException {
            this.to = to;
            this.socket = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        }

        /** Returns {detached subscribers, exchanges that failed after N3 retransmissions}. */
        int[] attachAndDetach(int first, int count) throws IOException {
            AtomicInteger failed = new AtomicInteger();
            int detached = 0;
            try (socket) {
                for (int i = first; i < first + count; i++) {
                    long mmeTeid = 0x4000 + i;
                    byte[] attach = exchange(GtpMessages.v2CreateRequest(imsi(i), sequence++, mmeTeid,
                            new byte[] {127, 0, 0, 1}, null, "internet", 5), failed);
                    byte[] again = exchange(GtpMessages.v2CreateRequest(imsi(i), sequence++, mmeTeid,
                            new byte[] {127, 0, 0, 1}, null, "internet", 5), failed);
                    byte[] created = again != null ? again : attach;
                    if (created == null) {
                        continue;
                    }
                    long directorTeid = senderTeid(created);
                    byte[] deleted = exchange(GtpMessages.v2(36, directorTeid, sequence++, new byte[] {73, 0, 1, 0, 5}),
                            failed);
                    if (deleted != null) {
                        detached++;
                    }
                }
            }
            return new int[] {detached, failed.get()};
        }

        /** The answer to {@code request}, retransmitted every T3 up to N3 times; null if none came. */
        private byte[] exchange(byte[] request, AtomicInteger failed) throws IOException {
            int wanted = (request[8] & 0xff) << 16 | (request[9] & 0xff) << 8 | (request[10] & 0xff);
            for (int attempt = 0; attempt <= N3; attempt++) {
                socket.send(new DatagramPacket(request, request.length, to));
                long deadline = System.nanoTime() + T3.toNanos();
                while (System.nanoTime() < deadline) {
                    socket.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                    DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
                    try {
                        socket.receive(in);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    byte[] answer = Arrays.copyOf(in.getData(), in.getLength());
                    int got = (answer[8] & 0xff) << 16 | (answer[9] & 0xff) << 8 | (answer[10] & 0xff);
                    if (got == wanted) {
                        return answer; // an earlier exchange's late or duplicated answer is skipped
                    }
                }
            }
            failed.incrementAndGet();
            System.out.printf("impairment: no answer to type %d sequence %d after %d sendings%n", request[1], wanted, N3 + 1);
            return null;
        }

        private static long senderTeid(byte[] createResponse) {
            try {
                return new GtpMessageView().wrap(Unpooled.wrappedBuffer(createResponse)).senderControlPlane().teid();
            } catch (io.switchboard.codec.DecodeException e) {
                throw new AssertionError("the director's Create Session Response", e);
            }
        }
    }
}
