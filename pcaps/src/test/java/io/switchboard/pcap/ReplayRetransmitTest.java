package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Replay as the client of several directors: requests spread over the targets, and one unanswered
 * after the timeout goes again, the same bytes, to the next target. Two GTPv2 Echo responders on
 * 127.0.4.61 and .62 stand for two directors; one of them silent is a director that stopped.
 */
class ReplayRetransmitTest {

    /** GTPv2 Echo Request (TS 29.274 §7.1.1), sequence rewritten per request by the template. */
    private static final byte[] ECHO = {0x40, 1, 0, 9, 0, 0, 1, 0, 3, 0, 1, 0, 7};

    private final ScheduledExecutorService delays = Executors.newSingleThreadScheduledExecutor();
    private final List<Responder> responders = new CopyOnWriteArrayList<>();

    /** Answers each Echo Request after {@code delayMillis}, or never when negative; keeps what it received. */
    private final class Responder implements AutoCloseable {
        final DatagramSocket socket;
        final List<byte[]> received = new CopyOnWriteArrayList<>();
        volatile long delayMillis;

        Responder(String address, long delayMillis) throws IOException {
            this.socket = new DatagramSocket(new InetSocketAddress(address, 0));
            this.delayMillis = delayMillis;
            responders.add(this);
            Thread t = new Thread(this::serve, "echo-" + address);
            t.setDaemon(true);
            t.start();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) socket.getLocalSocketAddress();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try {
                    DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                    socket.receive(p);
                    byte[] request = Arrays.copyOf(p.getData(), p.getLength());
                    received.add(request);
                    if (delayMillis < 0) {
                        continue;
                    }
                    byte[] answer = request.clone();
                    answer[1] = 2; // Echo Response, same sequence
                    SocketAddress to = p.getSocketAddress();
                    delays.schedule(() -> {
                        try {
                            socket.send(new DatagramPacket(answer, answer.length, to));
                        } catch (IOException e) {
                            // closed at the end of the test
                        }
                    }, delayMillis, TimeUnit.MILLISECONDS);
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() {
            socket.close();
        }
    }

    @AfterEach
    void stop() {
        responders.forEach(Responder::close);
        delays.shutdownNow();
    }

    private static Template template() {
        return new Template(new Replay.Requests(2123, SignalingProtocol.GTPV2,
                List.of(new Replay.Request(1, Instant.EPOCH, ECHO))), List.of(), null);
    }

    private static Replay replay(List<Responder> to, int retransmits, Duration timeout, Replay.Lanes lanes) {
        return new Replay(to.stream().map(Responder::address).toList(), retransmits, null, timeout, null, lanes);
    }

    @Test
    void requestsToAStoppedDirectorAreAnsweredByTheNextAfterOneTimeout() throws Exception {
        Responder stopped = new Responder("127.0.4.61", -1);
        Responder running = new Responder("127.0.4.62", 0);

        Replay.Report report = replay(List.of(stopped, running), 1, Duration.ofMillis(200), new Replay.Lanes(2, 4))
                .run(SignalingProtocol.GTPV2, 40, template());

        // Request i goes first to target i mod 2: the even ones to the stopped director.
        assertThat(report.sent()).isEqualTo(40);
        assertThat(report.answered()).isEqualTo(40);
        assertThat(report.lost()).isZero();
        assertThat(report.late()).isZero();
        assertThat(report.retransmitted()).isEqualTo(20);
        assertThat(report.answeredAfterRetransmit()).isEqualTo(20);
        assertThat(stopped.received).hasSize(20);
        assertThat(running.received).hasSize(40);
        // A retransmission is the request's own bytes (its sequence number too), as a peer resends it.
        assertThat(stopped.received).allSatisfy(sent ->
                assertThat(running.received).anySatisfy(again -> assertThat(again).isEqualTo(sent)));
        // Its latency counts from the first try: at least one timeout.
        assertThat(report.percentile(0.9)).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
    }

    @Test
    void aRequestNoTargetAnswersIsLostAfterItsLastTry() throws Exception {
        Responder a = new Responder("127.0.4.61", -1);
        Responder b = new Responder("127.0.4.62", -1);

        Replay.Report report = replay(List.of(a, b), 2, Duration.ofMillis(50), new Replay.Lanes(1, 10))
                .run(SignalingProtocol.GTPV2, 10, template());

        assertThat(report.sent()).isEqualTo(10);
        assertThat(report.answered()).isZero();
        assertThat(report.retransmitted()).isEqualTo(20);
        assertThat(report.lost()).isEqualTo(10);
        // Three tries each, alternating from the first target: even requests A, B, A; odd B, A, B.
        assertThat(a.received).hasSize(15);
        assertThat(b.received).hasSize(15);
    }

    @Test
    void aLateAnswerToTheFirstTryAnswersTheRequestOnce() throws Exception {
        Responder slow = new Responder("127.0.4.61", 300);
        Responder stopped = new Responder("127.0.4.62", -1);

        // The slow director answers (300 ms) after the retransmission went to the stopped one (timeout
        // 250 ms), and before that try times out: the client takes it, as a peer takes any answer to its request.
        Replay.Report report = replay(List.of(slow, stopped), 1, Duration.ofMillis(250), new Replay.Lanes(1, 1))
                .run(SignalingProtocol.GTPV2, 1, template());

        assertThat(report.sent()).isEqualTo(1);
        assertThat(report.retransmitted()).isEqualTo(1);
        assertThat(report.answered()).isEqualTo(1);
        assertThat(report.answeredAfterRetransmit()).isEqualTo(1);
        assertThat(report.lost()).isZero();
        assertThat(stopped.received).hasSize(1);
    }

    @Test
    void oneTargetWithoutRetransmissionsKeepsItsCounts() throws Exception {
        Responder only = new Responder("127.0.4.61", -1);

        Replay.Report report = replay(List.of(only), 0, Duration.ofMillis(50), new Replay.Lanes(1, 5))
                .run(SignalingProtocol.GTPV2, 5, template());

        assertThat(report.sent()).isEqualTo(5);
        assertThat(report.retransmitted()).isZero();
        assertThat(report.lost()).isEqualTo(5);
        assertThat(only.received).hasSize(5);
    }
}
