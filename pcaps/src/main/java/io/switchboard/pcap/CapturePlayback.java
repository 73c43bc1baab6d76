package io.switchboard.pcap;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A capture played for a what-if run, offline or live: first read for its answers (the simulated
 * reals answer with them), then frame by frame, each datagram (or unreadable frame) handed on with
 * the run's clock set to its capture time. The clock of a capture starts where the previous one's
 * ended, and never goes back.
 */
final class CapturePlayback {

    /** What a run does with each event, the clock set. */
    interface Handler {

        void datagram(UdpDatagram datagram, CapturedAnswers answers);

        void unreadable(int frame, String reason);
    }

    private volatile long now = 1;
    private long fileBase;

    /** The run's clock: nanoseconds of capture time since the run began, from 1. */
    long now() {
        return now;
    }

    /** Plays one capture; returns its answers, of which those left were taken by no request. */
    CapturedAnswers play(Path capture, Handler handler) throws CaptureException {
        CapturedAnswers answers = answersOf(capture);
        UdpExtractor extractor = new UdpExtractor();
        Map<Integer, Instant> times = new HashMap<>();
        Instant[] first = {null};
        long base = fileBase;
        Consumer<CaptureEvent> events = event -> {
            Instant at = times.remove(event.frame());
            if (at != null && first[0] != null) {
                now = Math.max(now, base + Duration.between(first[0], at).toNanos());
            }
            if (event instanceof UdpDatagram d) {
                handler.datagram(d, answers);
            } else {
                handler.unreadable(event.frame(), ((CaptureEvent.Unreadable) event).reason());
            }
        };
        try (CaptureFile file = CaptureFile.open(capture)) {
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                if (first[0] == null) {
                    first[0] = frame.timestamp();
                }
                times.put(frame.number(), frame.timestamp());
                extractor.accept(frame, events);
                int oldest = frame.number() - 10_000;
                times.keySet().removeIf(n -> n < oldest);
            }
        }
        extractor.finish(events);
        fileBase = now + 1_000_000;
        return answers;
    }

    /** The capture's answers; of a capture that cannot be read to its end, those before the break (the second pass reports it). */
    private static CapturedAnswers answersOf(Path capture) {
        CapturedAnswers answers = new CapturedAnswers();
        UdpExtractor extractor = new UdpExtractor();
        Consumer<CaptureEvent> events = e -> {
            if (e instanceof UdpDatagram d) {
                answers.offer(d);
            }
        };
        try (CaptureFile file = CaptureFile.open(capture)) {
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                extractor.accept(frame, events);
            }
        } catch (CaptureException e) {
            return answers;
        }
        extractor.finish(events);
        return answers;
    }
}
