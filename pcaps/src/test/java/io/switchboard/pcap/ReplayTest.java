package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replay's closed loop against a responder on 127.0.4.50 that answers every request 5 ms late and
 * counts how many it holds unanswered: never more than the window, whatever the number of sockets.
 */
class ReplayTest {

    /** GTPv2 Echo Request (TS 29.274 §7.1.1), sequence rewritten per request by the template. */
    private static final byte[] ECHO = {0x40, 1, 0, 9, 0, 0, 1, 0, 3, 0, 1, 0, 7};

    private DatagramSocket socket;
    private ScheduledExecutorService delays;
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicInteger mostHeld = new AtomicInteger();
    private final AtomicInteger received = new AtomicInteger();
    private final java.util.concurrent.CountDownLatch fifty = new java.util.concurrent.CountDownLatch(50);

    @BeforeEach
    void startResponder() throws Exception {
        socket = new DatagramSocket(new InetSocketAddress("127.0.4.50", 0));
        delays = Executors.newSingleThreadScheduledExecutor();
        Thread t = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                    socket.receive(p);
                    received.incrementAndGet();
                    fifty.countDown();
                    mostHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
                    byte[] answer = java.util.Arrays.copyOf(p.getData(), p.getLength());
                    answer[1] = 2; // Echo Response, same sequence
                    SocketAddress to = p.getSocketAddress();
                    delays.schedule(() -> {
                        held.decrementAndGet();
                        try {
                            socket.send(new DatagramPacket(answer, answer.length, to));
                        } catch (java.io.IOException e) {
                            // closed at the end of the test
                        }
                    }, 5, TimeUnit.MILLISECONDS);
                } catch (java.io.IOException e) {
                    return;
                }
            }
        }, "delayed-echo");
        t.setDaemon(true);
        t.start();
    }

    @AfterEach
    void stopResponder() {
        socket.close();
        delays.shutdownNow();
    }

    private Template template() {
        return new Template(new Replay.Requests(2123, SignalingProtocol.GTPV2,
                List.of(new Replay.Request(1, Instant.EPOCH, ECHO))), List.of(), null);
    }

    @Test
    void theWindowBoundsWhatIsInFlightOverAllSockets() throws Exception {
        Replay replay = new Replay((InetSocketAddress) socket.getLocalSocketAddress(), null, Duration.ofSeconds(1),
                null, new Replay.Lanes(3, 8));
        Replay.Report report = replay.run(SignalingProtocol.GTPV2, Duration.ofMillis(500), template());
        assertThat(report.sent()).isGreaterThan(100).isEqualTo(received.get());
        assertThat(report.answered()).isEqualTo(report.sent());
        assertThat(report.lost()).isZero();
        assertThat(mostHeld.get()).isBetween(2, 8);
        assertThat(report.percentile(0.5)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
    }

    @Test
    void aRunForAnHourEndsWhenStoppedAndWaitsForWhatIsInFlight() throws Exception {
        Replay replay = new Replay((InetSocketAddress) socket.getLocalSocketAddress(), null, Duration.ofSeconds(1),
                null, new Replay.Lanes(2, 4));
        Thread stopper = new Thread(() -> {
            try {
                fifty.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            replay.stop();
        });
        stopper.start();
        Replay.Report report = replay.run(SignalingProtocol.GTPV2, Duration.ofHours(1), template());
        stopper.join();
        assertThat(report.sent()).isGreaterThanOrEqualTo(50).isEqualTo(received.get());
        assertThat(report.answered()).isEqualTo(report.sent());
        assertThat(report.lost()).isZero();
    }

    @Test
    void openLoopSendsTheCountAtTheRateWithoutWaitingForAnswers() throws Exception {
        Replay replay = new Replay((InetSocketAddress) socket.getLocalSocketAddress(), Replay.Pacing.fixedRate(2000),
                Duration.ofSeconds(1), null, new Replay.Lanes(2, 0));
        Replay.Report report = replay.run(SignalingProtocol.GTPV2, 400, template());
        assertThat(report.sent()).isEqualTo(400);
        assertThat(report.answered()).isEqualTo(400);
        // 400 at 2000/s take 200 ms to send; answers 5 ms late: several in flight at once.
        assertThat(report.sending().toMillis()).isBetween(190L, 400L);
        assertThat(mostHeld.get()).isGreaterThan(1);
    }

    @Test
    void aLaneThatFallsBehindItsScheduleStillSendsEveryRequestDueWithinTheDuration() throws Exception {
        InetSocketAddress target = (InetSocketAddress) socket.getLocalSocketAddress();
        try (java.nio.channels.DatagramChannel channel = java.nio.channels.DatagramChannel.open()) {
            channel.bind(new InetSocketAddress("127.0.0.1", 0));
            channel.connect(target);
            // 100/s for 1 s, on a thread that first runs 2 s after the start (a starved machine):
            // all 100 are overdue and the duration is over, yet they are the run (sent in one burst,
            // which the responder's default socket buffer holds). The timeout (5 s, counted from when
            // each was due) leaves their answers in time.
            ReplayLane lane = new ReplayLane(0, 1, Integer.MAX_VALUE, template()::write, i -> i * 10_000_000L,
                    TimeUnit.SECONDS.toNanos(5), 0, channel, List.of(target), 0, null, SignalingProtocol.GTPV2);
            long start = System.nanoTime() - TimeUnit.SECONDS.toNanos(2);
            lane.begin(start, start + TimeUnit.SECONDS.toNanos(1));
            lane.run();
            assertThat(lane.failure).isNull();
            assertThat(lane.sent()).isEqualTo(100);
            assertThat(lane.answered).isEqualTo(100);
            assertThat(received.get()).isEqualTo(100);
            // Open loop: latency counts from when each was due, so the lateness shows.
            assertThat(lane.latencies.getMinValue()).isGreaterThanOrEqualTo(TimeUnit.SECONDS.toNanos(1));
        }
    }
}
