package io.switchboard.pcap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the requests of a capture to a live director (or any UDP peer) and matches its answers:
 * GTP by sequence number, RADIUS by identifier, Mobile IP by Identification, R6 by transaction id,
 * anything else by arrival order. Requests go out at the capture's own timing, a multiple of it, or
 * a fixed rate (open loop: the schedule does not wait for answers), from one socket.
 *
 * <p>An answer within the timeout counts as answered (with its latency from the moment the request
 * was due by the schedule, so that a sender falling behind does not hide latency); one that comes later, before the run ends, as late; a request without answer as lost.
 * The run ends one timeout after the last request was sent.
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

    /** What a run did; latencies of the answered requests in nanoseconds, sorted. */
    public record Report(int sent, int answered, int late, int lost, long[] latencies, Duration elapsed) {

        /** The latency at quantile {@code q} (0..1), nearest rank; 0 without answers. */
        public long percentile(double q) {
            if (latencies.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(q * latencies.length);
            return latencies[Math.max(0, Math.min(latencies.length - 1, rank - 1))];
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sent", sent);
            m.put("answered", answered);
            m.put("late", late);
            m.put("lost", lost);
            Map<String, Object> latency = new LinkedHashMap<>();
            latency.put("p50", millis(percentile(0.50)));
            latency.put("p90", millis(percentile(0.90)));
            latency.put("p99", millis(percentile(0.99)));
            latency.put("max", millis(latencies.length == 0 ? 0 : latencies[latencies.length - 1]));
            m.put("latency_ms", latency);
            m.put("elapsed_s", Math.round(elapsed.toNanos() / 1e6) / 1e3);
            return m;
        }

        private static double millis(long nanos) {
            return Math.round(nanos / 1e3) / 1e3;
        }
    }

    /** A sent request waiting for its answer. */
    private record Pending(long sentNanos) {
    }

    /** Receives what was sent and received, in order (for {@code --write}). */
    public interface Recorder {
        void sent(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException;

        void received(InetSocketAddress from, InetSocketAddress to, byte[] payload) throws IOException;
    }

    private final InetSocketAddress target;
    private final Pacing pacing;
    private final Duration timeout;
    private final Recorder recorder;

    /** @param recorder null when nothing is written */
    public Replay(InetSocketAddress target, Pacing pacing, Duration timeout, Recorder recorder) {
        this.target = target;
        this.pacing = pacing;
        this.timeout = timeout;
        this.recorder = recorder;
    }

    /** Sends every request, waits one timeout for the last answers, and reports. */
    public Report run(Requests requests) throws IOException {
        List<Request> list = requests.requests();
        Instant first = list.get(0).captured();
        return run(requests.protocol(), list.size(), i -> list.get(i).payload(),
                i -> offsetNanos(i, first, list.get(i).captured()));
    }

    /**
     * Sends {@code count} requests made by {@code template} (the i-th request's bytes, see
     * {@link Template}) at the fixed rate of the pacing (load generation), and reports.
     */
    public Report run(SignalingProtocol protocol, int count, java.util.function.IntFunction<byte[]> template)
            throws IOException {
        if (pacing.rate() <= 0) {
            throw new IllegalArgumentException("load from a template needs --rate");
        }
        return run(protocol, count, template, i -> offsetNanos(i, null, null));
    }

    private Report run(SignalingProtocol protocol, int count, java.util.function.IntFunction<byte[]> payloads,
                       java.util.function.IntToLongFunction schedule) throws IOException {
        Map<Long, ArrayDeque<Pending>> byId = new HashMap<>();
        ArrayDeque<Pending> inOrder = new ArrayDeque<>();
        long timeoutNanos = timeout.toNanos();
        int[] counts = new int[2]; // answered, late
        long[] latencies = new long[count];
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.bind(new InetSocketAddress(target.getAddress().isLoopbackAddress()
                    ? InetAddress.getLoopbackAddress() : null, 0));
            channel.connect(target);
            channel.socket().setSoTimeout(50);
            InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            Thread receiver = new Thread(() -> {
                ByteBuffer buffer = ByteBuffer.allocate(65_536);
                var in = channelInput(channel);
                while (!stop.get()) {
                    byte[] answer;
                    try {
                        answer = in.receive(buffer);
                    } catch (SocketTimeoutException | PortUnreachableException e) {
                        continue;
                    } catch (IOException e) {
                        if (!channel.isOpen()) {
                            return;
                        }
                        continue;
                    }
                    long now = System.nanoTime();
                    synchronized (byId) {
                        Pending p = match(protocol, answer, byId, inOrder);
                        if (p == null) {
                            continue;
                        }
                        long latency = now - p.sentNanos();
                        if (latency <= timeoutNanos) {
                            latencies[counts[0]++] = latency;
                        } else {
                            counts[1]++;
                        }
                        record(false, target, local, answer);
                    }
                }
            }, "replay-receiver");
            receiver.setDaemon(true);
            receiver.start();
            MessageDirection.transactionId(protocol, payloads.apply(0)); // loads the codecs
            long start = System.nanoTime();
            long lastSent = start;
            for (int index = 0; index < count; index++) {
                byte[] payload = payloads.apply(index);
                long due = start + schedule.applyAsLong(index);
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                long id = MessageDirection.transactionId(protocol, payload);
                synchronized (byId) {
                    // Latency counts from the intended send time, not the actual one: a sender that
                    // falls behind its schedule shows up in the latencies (no coordinated omission).
                    Pending p = new Pending(Math.min(due, System.nanoTime()));
                    if (id < 0) {
                        inOrder.add(p);
                    } else {
                        byId.computeIfAbsent(id, k -> new ArrayDeque<>()).add(p);
                    }
                    record(true, local, target, payload);
                    lastSent = p.sentNanos();
                }
                try {
                    channel.write(ByteBuffer.wrap(payload));
                } catch (PortUnreachableException e) {
                    // the peer is not listening (yet): the request is lost
                }
            }
            long end = lastSent + timeoutNanos;
            for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
                LockSupport.parkNanos(Math.min(left, 10_000_000));
                synchronized (byId) {
                    if (allDone(byId, inOrder)) {
                        break;
                    }
                }
            }
            stop.set(true);
            try {
                receiver.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            synchronized (byId) {
                int sent = count;
                int answered = counts[0];
                int late = counts[1];
                long[] sorted = Arrays.copyOf(latencies, answered);
                Arrays.sort(sorted);
                return new Report(sent, answered, late, sent - answered - late, sorted,
                        Duration.ofNanos(System.nanoTime() - start));
            }
        }
    }

    private IOException recordFailure;

    private void record(boolean sent, InetSocketAddress from, InetSocketAddress to, byte[] payload) {
        if (recorder == null || recordFailure != null) {
            return;
        }
        try {
            if (sent) {
                recorder.sent(from, to, payload);
            } else {
                recorder.received(from, to, payload);
            }
        } catch (IOException e) {
            recordFailure = e;
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

    private static Pending match(SignalingProtocol protocol, byte[] answer, Map<Long, ArrayDeque<Pending>> byId,
                                 ArrayDeque<Pending> inOrder) {
        long id = MessageDirection.transactionId(protocol, answer);
        ArrayDeque<Pending> queue = id < 0 ? inOrder : byId.get(id);
        if (queue == null || queue.isEmpty()) {
            // An id we never sent, or a protocol whose answers the views cannot read: arrival order.
            queue = inOrder.isEmpty() ? null : inOrder;
            if (queue == null) {
                return null;
            }
        }
        Pending p = queue.poll();
        if (queue.isEmpty() && queue != inOrder) {
            byId.remove(id);
        }
        return p;
    }

    private static boolean allDone(Map<Long, ArrayDeque<Pending>> byId, ArrayDeque<Pending> inOrder) {
        if (!inOrder.isEmpty()) {
            return false;
        }
        for (ArrayDeque<Pending> q : byId.values()) {
            if (!q.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    @FunctionalInterface
    private interface Input {
        byte[] receive(ByteBuffer buffer) throws IOException;
    }

    /** Blocking reads with the socket's timeout (a channel read ignores SO_TIMEOUT; its adaptor does not). */
    private static Input channelInput(DatagramChannel channel) {
        java.net.DatagramSocket socket = channel.socket();
        return buffer -> {
            java.net.DatagramPacket packet = new java.net.DatagramPacket(buffer.array(), buffer.capacity());
            socket.receive(packet);
            return Arrays.copyOf(packet.getData(), packet.getLength());
        };
    }
}
