package io.switchboard.pcap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Sends the requests of a capture to a live director (or any UDP peer) and matches its answers:
 * GTP by sequence number, RADIUS by identifier, Mobile IP by Identification, R6 by transaction id,
 * anything else by arrival order. Requests go out at the capture's own timing, a multiple of it, or
 * a fixed rate (open loop: the schedule does not wait for answers), from one socket.
 *
 * <p>An answer within the timeout counts as answered (with its latency from the moment the request
 * was due by the schedule, so that a sender falling behind does not hide latency); one that comes later, before the run ends, as late; a request without answer as lost.
 * The run ends one timeout after the last request was sent.
 *
 * <p>Given several targets and retransmissions (the clients of a farm behind several directors),
 * request i goes first to target {@code i mod targets}; unanswered after the timeout it is sent again,
 * the same bytes, to the next target, up to the retransmissions given. It is lost when no try is
 * answered before the last one times out; its latency counts from its first try.
 */
public final class Replay {

    /** How requests are paced: {@code rate} per second when positive, else the capture's timing divided by {@code speed}. */
    public record Pacing(double rate, double speed) {

        public static Pacing capture(double speed) {
            if (!(speed > 0)) {
                throw new IllegalArgumentException("--speed must be positive");
            }
            return new Pacing(0, speed);
        }

        public static Pacing fixedRate(double rate) {
            if (!(rate > 0)) {
                throw new IllegalArgumentException("--rate must be positive");
            }
            return new Pacing(rate, 0);
        }
    }

    /** One request to send: its frame in the capture, when it was captured, its bytes. */
    public record Request(int frame, Instant captured, byte[] payload) {
    }

    /** The requests of a capture sent to {@code port}, answers left out, and the port chosen. */
    public record Requests(int port, SignalingProtocol protocol, List<Request> requests) {
    }

    /**
     * The requests of a capture: datagrams sent to {@code port} (or, when it is 0, to the
     * destination port of the first Switchboard signaling request in the capture, else of its first
     * datagram) that are not answers.
     */
    public static Requests read(Path capture, int port) throws CaptureException {
        List<UdpDatagram> datagrams = new ArrayList<>();
        Map<Integer, Instant> times = new HashMap<>();
        UdpExtractor extractor = new UdpExtractor();
        try (CaptureFile file = CaptureFile.open(capture)) {
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                times.put(frame.number(), frame.timestamp());
                extractor.accept(frame, e -> {
                    if (e instanceof UdpDatagram d) {
                        datagrams.add(d);
                    }
                });
            }
        }
        extractor.finish(e -> { });
        int chosen = port;
        if (chosen == 0) {
            for (UdpDatagram d : datagrams) {
                SignalingProtocol p = SignalingProtocol.classify(d.sourcePort(), d.destinationPort(), d.payload());
                if (p != null && !MessageDirection.isAnswer(p, d.payload())
                        && SignalingProtocol.classify(0, d.destinationPort(), d.payload()) != null) {
                    chosen = d.destinationPort();
                    break;
                }
            }
        }
        if (chosen == 0 && !datagrams.isEmpty()) {
            chosen = datagrams.get(0).destinationPort();
        }
        if (chosen == 0) {
            throw new CaptureException(capture + ": no UDP datagram to replay");
        }
        List<Request> requests = new ArrayList<>();
        SignalingProtocol protocol = null;
        for (UdpDatagram d : datagrams) {
            if (d.destinationPort() != chosen) {
                continue;
            }
            SignalingProtocol p = SignalingProtocol.classify(0, chosen, d.payload());
            if (MessageDirection.isAnswer(p, d.payload())) {
                continue;
            }
            protocol = protocol == null ? p : protocol;
            requests.add(new Request(d.frame(), times.getOrDefault(d.frame(), Instant.EPOCH), d.payload()));
        }
        if (requests.isEmpty()) {
            throw new CaptureException(capture + ": no request sent to port " + chosen);
        }
        return new Requests(chosen, protocol, requests);
    }

    /**
     * What a run did: latencies of the answered requests (nanoseconds), and when the run's first
     * request was due, its last one sent and its last answer received, for the rates.
     */
    public record Report(int sent, int answered, int late, int lost, int retransmitted,
                         int answeredAfterRetransmit, Histogram latencies, Duration elapsed,
                         Duration sending, Duration answering) {

        /** The latency at quantile {@code q} (0..1); 0 without answers. */
        public long percentile(double q) {
            return latencies.getTotalCount() == 0 ? 0 : latencies.getValueAtPercentile(q * 100);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sent", sent);
            m.put("answered", answered);
            m.put("late", late);
            m.put("lost", lost);
            m.put("retransmitted", retransmitted);
            m.put("answered_after_retransmit", answeredAfterRetransmit);
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("p50", millis(percentile(0.50)));
            latency.put("p90", millis(percentile(0.90)));
            latency.put("p99", millis(percentile(0.99)));
            latency.put("max", millis(latencies.getTotalCount() == 0 ? 0 : latencies.getMaxValue()));
            m.put("latency_ms", latency);
            m.put("elapsed_s", Math.round(elapsed.toNanos() / 1e6) / 1e3);
            // Rates over the time the requests were sent, and until the last answer came.
            m.put("sent_per_s", Math.round(sent / Math.max(1e-9, sending.toNanos() / 1e9)));
            m.put("answered_per_s", Math.round(answered / Math.max(1e-9, answering.toNanos() / 1e9)));
            return m;
        }

        private static double millis(long nanos) {
            return Math.round(nanos / 1e3) / 1e3;
        }
    }

    /** Receives what was sent and received, in order (for {@code --write}). */
    public interface Recorder {
        void sent(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException;

        void received(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException;
    }

    /** How many sockets (each with a thread of its own) and how many requests in flight at most. */
    public record Lanes(int sockets, int window) {

        public static final Lanes ONE = new Lanes(1, 0);

        public Lanes {
            if (sockets < 1 || sockets > 64) {
                throw new IllegalArgumentException("--sockets must be 1..64");
            }
            if (window < 0) {
                throw new IllegalArgumentException("--window must be positive");
            }
        }
    }

    private final List<InetSocketAddress> targets;
    private final int retransmits;
    private final Pacing pacing;
    private final Duration timeout;
    private final Recorder recorder;
    private final Lanes lanes;
    private IOException recordFailure;
    private volatile boolean stopRequested;
    private volatile List<ReplayLane> running;

    /** @param recorder null when nothing is written */
    public Replay(InetSocketAddress target, Pacing pacing, Duration timeout, Recorder recorder) {
        this(target, pacing, timeout, recorder, Lanes.ONE);
    }

    /**
     * @param recorder null when nothing is written
     * @param lanes    sockets to send from (requests dealt round robin) and the window: with a window,
     *                 at most that many requests are in flight (closed loop; split evenly over the
     *                 sockets), and with a {@code null} pacing requests go out as fast as it allows
     */
    public Replay(InetSocketAddress target, Pacing pacing, Duration timeout, Recorder recorder, Lanes lanes) {
        this(List.of(target), 0, pacing, timeout, recorder, lanes);
    }

    /**
     * @param targets     where requests go, first to {@code i mod targets}, tried again to the next
     * @param retransmits how many times an unanswered request is sent again (0: never)
     */
    public Replay(List<InetSocketAddress> targets, int retransmits, Pacing pacing, Duration timeout,
                  Recorder recorder, Lanes lanes) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a replay needs a target (--to)");
        }
        if (retransmits < 0 || retransmits > 100) {
            throw new IllegalArgumentException("--retransmit must be 0..100");
        }
        this.targets = List.copyOf(targets);
        this.retransmits = retransmits;
        this.pacing = pacing;
        this.timeout = timeout;
        this.recorder = recorder;
        this.lanes = lanes;
        if (pacing == null && lanes.window() == 0) {
            throw new IllegalArgumentException("without a rate or the capture's timing, a run needs a --window");
        }
    }

    /** Sends every request, waits one timeout for the last answers, and reports. */
    public Report run(Requests requests) throws IOException {
        List<Request> list = requests.requests();
        Instant first = list.get(0).captured();
        ReplayLane.Source source = (i, transaction, into) -> {
            byte[] p = list.get(i).payload();
            System.arraycopy(p, 0, into, 0, p.length);
            return p.length;
        };
        return run(requests.protocol(), list.size(), 0, source,
                pacing == null ? null : i -> offsetNanos(i, first, list.get(i).captured()));
    }

    /**
     * Sends {@code count} requests made by {@code template} (see {@link Template}) at the fixed rate
     * of the pacing or, without one, as fast as the window allows (load generation), and reports.
     */
    public Report run(SignalingProtocol protocol, int count, Template template) throws IOException {
        return run(protocol, count, 0, template::write, schedule());
    }

    /**
     * Load for {@code duration}: requests made by {@code template}, at the pacing's fixed rate (when
     * there is one) and within the window, until the duration is over; then one timeout for the last
     * answers.
     */
    public Report run(SignalingProtocol protocol, Duration duration, Template template) throws IOException {
        return run(protocol, Integer.MAX_VALUE, duration.toNanos(), template::write, schedule());
    }

    private java.util.function.IntToLongFunction schedule() {
        if (pacing != null && pacing.rate() <= 0) {
            throw new IllegalArgumentException("load from a template needs --rate or --window");
        }
        return pacing == null ? null : i -> offsetNanos(i, null, null);
    }

    private Report run(SignalingProtocol protocol, int count, long durationNanos, ReplayLane.Source source,
                       java.util.function.IntToLongFunction schedule) throws IOException {
        long timeoutNanos = timeout.toNanos();
        int n = Math.max(1, Math.min(lanes.sockets(), count));
        List<DatagramChannel> channels = new ArrayList<>();
        List<ReplayLane> lanesOfRun = new ArrayList<>();
        try {
            MessageDirection.transactionId(protocol, new byte[0]); // loads the codecs before the clock starts
            for (int k = 0; k < n; k++) {
                DatagramChannel channel = DatagramChannel.open();
                channels.add(channel);
                channel.setOption(java.net.StandardSocketOptions.SO_RCVBUF, 4 << 20);
                channel.setOption(java.net.StandardSocketOptions.SO_SNDBUF, 4 << 20);
                boolean loopback = targets.stream().allMatch(t -> t.getAddress().isLoopbackAddress());
                channel.bind(new InetSocketAddress(loopback ? InetAddress.getLoopbackAddress() : null, 0));
                if (targets.size() == 1) {
                    channel.connect(targets.get(0)); // answers from that peer only, and its ICMP errors
                }
                int window = lanes.window() == 0 ? 0 : Math.max(1, (lanes.window() + n - 1 - k) / n);
                lanesOfRun.add(new ReplayLane(k, n, count, source, schedule, timeoutNanos, window, channel, targets,
                        retransmits, recorder, protocol));
            }
            running = lanesOfRun;
            if (stopRequested) {
                lanesOfRun.forEach(ReplayLane::stop);
            }
            // The clock starts once every socket and lane is ready.
            long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            long deadline = durationNanos > 0 ? start + durationNanos : 0;
            for (ReplayLane lane : lanesOfRun) {
                lane.begin(start, deadline);
            }
            List<Thread> threads = new ArrayList<>();
            for (int k = 1; k < n; k++) {
                Thread t = new Thread(lanesOfRun.get(k), "replay-lane-" + k);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
            lanesOfRun.get(0).run();
            for (Thread t : threads) {
                t.join();
            }
            long end = System.nanoTime();
            Histogram latencies = new Histogram(TimeUnit.HOURS.toNanos(1), 3);
            int sent = 0;
            int answered = 0;
            int late = 0;
            int retransmitted = 0;
            int answeredAfterRetransmit = 0;
            long lastSent = start;
            long lastAnswered = start;
            for (ReplayLane lane : lanesOfRun) {
                if (lane.failure != null) {
                    throw lane.failure;
                }
                if (lane.recordFailure != null && recordFailure == null) {
                    recordFailure = lane.recordFailure;
                }
                latencies.add(lane.latencies);
                sent += lane.sent();
                answered += lane.answered;
                late += lane.late;
                retransmitted += lane.retransmitted;
                answeredAfterRetransmit += lane.answeredAfterRetransmit;
                lastSent = Math.max(lastSent, lane.lastSentNanos);
                lastAnswered = Math.max(lastAnswered, lane.lastAnsweredNanos);
            }
            return new Report(sent, answered, late, sent - answered - late, retransmitted, answeredAfterRetransmit,
                    latencies, Duration.ofNanos(end - start),
                    Duration.ofNanos(lastSent - start), Duration.ofNanos(lastAnswered - start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("replay interrupted");
        } finally {
            for (DatagramChannel channel : channels) {
                channel.close();
            }
        }
    }

    /**
     * Ends the sending of a run from another thread, as if its duration were over: what is in flight
     * is still waited for (and tried again) as at the end of any run. A load that lasts as long as a
     * test's changes take, not a guessed duration.
     */
    public void stop() {
        stopRequested = true;
        List<ReplayLane> lanesOfRun = running;
        if (lanesOfRun != null) {
            lanesOfRun.forEach(ReplayLane::stop);
        }
    }

    /** The first error writing the capture, or null. */
    public IOException recordFailure() {
        return recordFailure;
    }

    private long offsetNanos(int index, Instant first, Instant captured) {
        if (pacing.rate() > 0) {
            return (long) (index * 1e9 / pacing.rate());
        }
        long delta = Math.max(0, Duration.between(first, captured).toNanos());
        return (long) (delta / pacing.speed());
    }
}
