package io.switchboard.pcap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code whatif --compare}: the same captures through an offline and a live run, line by line, then
 * summary against summary — every field of each line (real, reason, key, answer, refusals, binding,
 * violation) and of the summary — and last each real as the runs left it
 * ({@link WhatIfRun#realsAtEnd}), up to the first difference. It is the safety net of any
 * change to either (one engine for both is the goal): a decision that one makes and the other does
 * not shows here.
 */
public final class WhatIfComparison {

    /** The first difference: the line (or {@code {"summary":...}}) of each run; null fields where one run had none. */
    public record Difference(Map<String, Object> offline, Map<String, Object> live) {
    }

    /** A capture that could not be read: both runs stop at the same frame. */
    public record Unreadable(Path capture, String message) {
    }

    /** Thrown out of the live run at the first line that differs. */
    private static final class Differs extends RuntimeException {

        Differs() {
            super(null, null, false, false);
        }
    }

    private final List<Unreadable> unreadable = new ArrayList<>();

    /** Captures that could not be read to their end, with the reader's message. */
    public List<Unreadable> unreadable() {
        return unreadable;
    }

    /**
     * Runs each capture through {@code offline}, then {@code live}, comparing.
     *
     * @param labelled print each line with its file name (several captures)
     * @param agreed   each line both runs printed alike, as they come
     * @return the first difference, or null when the runs agree on every line and the summary
     */
    public Difference compare(WhatIfRun offline, WhatIfRun live, List<Path> captures, boolean labelled,
                              Consumer<WhatIfOutcome> agreed) {
        for (Path capture : captures) {
            String label = labelled ? capture.toString() : null;
            List<WhatIfOutcome> expected = new ArrayList<>();
            String offlineError = run(offline, capture, label, expected::add);
            int[] next = {0};
            Difference[] found = {null};
            String liveError;
            try {
                liveError = run(live, capture, label, outcome -> {
                    WhatIfOutcome want = next[0] < expected.size() ? expected.get(next[0]) : null;
                    next[0]++;
                    if (want == null || !want.toMap().equals(outcome.toMap())) {
                        found[0] = new Difference(want == null ? null : want.toMap(), outcome.toMap());
                        throw new Differs();
                    }
                    agreed.accept(outcome);
                });
            } catch (Differs stop) {
                return found[0];
            }
            if (next[0] < expected.size()) {
                return new Difference(expected.get(next[0]).toMap(), null);
            }
            if (offlineError != null || liveError != null) {
                if (offlineError == null || !offlineError.equals(liveError)) {
                    return new Difference(error(offlineError), error(liveError));
                }
                unreadable.add(new Unreadable(capture, offlineError));
            }
        }
        if (!offline.summary().equals(live.summary())) {
            return new Difference(summary(offline), summary(live));
        }
        Map<String, Map<String, Object>> offlineReals = offline.realsAtEnd();
        Map<String, Map<String, Object>> liveReals = live.realsAtEnd();
        for (String real : offlineReals.keySet()) {
            if (!offlineReals.get(real).equals(liveReals.get(real))) {
                return new Difference(Map.of("real_at_end", Map.of(real, offlineReals.get(real))),
                        Map.of("real_at_end", liveReals.get(real) == null ? Map.of() : Map.of(real, liveReals.get(real))));
            }
        }
        return null;
    }

    private static String run(WhatIfRun run, Path capture, String label, Consumer<WhatIfOutcome> out) {
        try {
            run.run(capture, label, out);
            return null;
        } catch (CaptureException e) {
            return e.getMessage();
        }
    }

    private static Map<String, Object> error(String message) {
        return message == null ? null : Map.of("error", message);
    }

    private static Map<String, Object> summary(WhatIfRun run) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("summary", run.summary());
        return m;
    }
}
