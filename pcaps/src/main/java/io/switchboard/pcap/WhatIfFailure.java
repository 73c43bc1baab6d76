package io.switchboard.pcap;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes {@code real} ({@code address:port} or {@code farm/address:port}) out of service at the first
 * request from {@code frame} on (of any capture), or, when {@code frame} is 0, from
 * {@code afterNanos} of capture time after the run's first frame.
 */
public record WhatIfFailure(String real, int frame, long afterNanos) {

    private static final Pattern TIME = Pattern.compile("\\+(\\d+)(ms|s|m|h)");

    /** Parses {@code REAL@FRAME} or {@code REAL@+TIME} ({@code +30s}, {@code +500ms}, {@code +5m}, {@code +1h}). */
    public static WhatIfFailure parse(String text) {
        int at = text.lastIndexOf('@');
        if (at <= 0 || at == text.length() - 1) {
            throw new IllegalArgumentException("expected REAL@FRAME or REAL@+TIME, e.g. 10.0.0.2:1812@120 or 10.0.0.2:1812@+30s: " + text);
        }
        String when = text.substring(at + 1);
        Matcher m = TIME.matcher(when);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            long nanos = switch (m.group(2)) {
                case "ms" -> n * 1_000_000L;
                case "s" -> n * 1_000_000_000L;
                case "m" -> n * 60_000_000_000L;
                default -> n * 3_600_000_000_000L;
            };
            return new WhatIfFailure(text.substring(0, at), 0, nanos);
        }
        try {
            int frame = Integer.parseInt(when);
            if (frame < 1) {
                throw new NumberFormatException();
            }
            return new WhatIfFailure(text.substring(0, at), frame, 0);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a frame number (from 1) or +TIME (+30s) after @ in " + text);
        }
    }

    boolean due(int frame, long sinceStartNanos) {
        return this.frame > 0 ? frame >= this.frame : sinceStartNanos >= afterNanos;
    }
}
