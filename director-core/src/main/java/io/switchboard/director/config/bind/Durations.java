package io.switchboard.director.config.bind;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as the configuration writes them: a whole number with one unit ({@code 500ms},
 * {@code 30s}, {@code 5m}, {@code 1h}, {@code 1d}) or ISO-8601 ({@code PT30S}, {@code P1DT2H}). A
 * bare number is refused: whether {@code 30} means seconds or milliseconds is exactly the kind of
 * guess a signaling director must not make.
 */
public final class Durations {

    /** The message for a value that is not a duration at all; shown after the key's path. */
    public static final String NOT_A_DURATION = "must be a duration with a unit, e.g. 30s";

    private static final Pattern WITH_UNIT = Pattern.compile("(\\d+)([a-zA-Z]+)");
    private static final Pattern BARE_NUMBER = Pattern.compile("[-+]?\\d+(\\.\\d*)?");

    private Durations() {
    }

    /**
     * {@code duration} as a configuration writes it, in the largest unit that holds it exactly
     * ({@code 1h}, {@code 90s}, {@code 250ms}); {@link #parse} reads it back.
     */
    public static String format(Duration duration) {
        long ms = duration.toMillis();
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }

    /**
     * Parses {@code text}. Zero and (ISO-8601) negative durations are returned as they are; whether
     * they make sense is for the caller to say.
     *
     * @throws IllegalArgumentException with a message fit to follow a path, e.g.
     *                                  {@value #NOT_A_DURATION}
     */
    public static Duration parse(String text) {
        if (text.isEmpty() || BARE_NUMBER.matcher(text).matches()) {
            throw new IllegalArgumentException(NOT_A_DURATION);
        }
        char first = text.charAt(0);
        if (first == 'P' || first == 'p' || ((first == '-' || first == '+') && text.length() > 1
                && (text.charAt(1) == 'P' || text.charAt(1) == 'p'))) {
            try {
                return Duration.parse(text);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(
                        "'" + text + "' is not an ISO-8601 duration (days and smaller, e.g. PT30S, P1DT12H)");
            }
        }
        Matcher m = WITH_UNIT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h, 1d)"
                    + " or ISO-8601 (PT30S)");
        }
        ChronoUnit unit = unit(m.group(2));
        if (unit == null) {
            throw new IllegalArgumentException("unknown unit '" + m.group(2) + "' in '" + text
                    + "'; use ms, s, m, h or d, or ISO-8601 (PT30S)");
        }
        try {
            return Duration.of(Long.parseLong(m.group(1)), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is too long a duration");
        }
    }

    private static ChronoUnit unit(String unit) {
        switch (unit) {
            case "ms":
                return ChronoUnit.MILLIS;
            case "s":
                return ChronoUnit.SECONDS;
            case "m":
                return ChronoUnit.MINUTES;
            case "h":
                return ChronoUnit.HOURS;
            case "d":
                return ChronoUnit.DAYS;
            default:
                return null;
        }
    }
}
