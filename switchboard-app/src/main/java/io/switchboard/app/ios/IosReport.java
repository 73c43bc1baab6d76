package io.switchboard.app.ios;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What became of each line of an IOS configuration: {@code translated} (to which key),
 * {@code implied} (Switchboard does it anyway), {@code ignored} (hardware-only or outside IOS SLB,
 * with why) or {@code unsupported} (a feature Switchboard lacks, named). Blank lines and {@code !}
 * comments configure nothing and are not listed; every other line is, once.
 */
public final class IosReport {

    /** The four fates of a line. */
    public enum Outcome {
        TRANSLATED, IMPLIED, IGNORED, UNSUPPORTED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One line's fate.
     *
     * @param detail the YAML key(s) for {@code translated}, the reason for the others
     */
    public record Entry(int line, String text, Outcome outcome, String detail) {
    }

    private final List<Entry> entries = new ArrayList<>();

    void add(int line, String text, Outcome outcome, String detail) {
        entries.add(new Entry(line, text, outcome, detail));
    }

    /** Forgets what was said of a line, for a later step that decides what became of it. */
    void retract(IosCommand command) {
        entries.removeIf(e -> e.line() == command.line());
    }

    void add(IosCommand command, Outcome outcome, String detail) {
        add(command.line(), command.text(), outcome, detail);
    }

    /** The entries in line order. */
    public List<Entry> entries() {
        return entries.stream().sorted(Comparator.comparingInt(Entry::line)).toList();
    }

    /** The entry of a line, if the line configures anything. */
    public java.util.Optional<Entry> entry(int line) {
        return entries.stream().filter(e -> e.line() == line).findFirst();
    }

    public long count(Outcome outcome) {
        return entries.stream().filter(e -> e.outcome() == outcome).count();
    }

    /** {@code import-ios}'s exit code: 0 when nothing was unsupported, else 3. */
    public int exitCode() {
        return count(Outcome.UNSUPPORTED) == 0 ? 0 : 3;
    }

    /** One line per IOS line: {@code  12 translated   weight 3  ->  farms.PUBLIC.reals[0].weight}. */
    public String text() {
        StringBuilder out = new StringBuilder();
        for (Entry e : entries()) {
            out.append(String.format("%5d %-12s %s%n", e.line(), e.outcome().label(), e.text()));
            out.append(String.format("      %-12s %s %s%n", "", e.outcome() == Outcome.TRANSLATED ? "->" : "--",
                    e.detail()));
        }
        out.append(summary()).append(System.lineSeparator());
        return out.toString();
    }

    /** {@code 20 lines: 15 translated, 3 implied, 2 ignored, 0 unsupported}. */
    public String summary() {
        Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            counts.put(o, count(o));
        }
        return entries.size() + " lines: " + counts.get(Outcome.TRANSLATED) + " translated, "
                + counts.get(Outcome.IMPLIED) + " implied, " + counts.get(Outcome.IGNORED) + " ignored, "
                + counts.get(Outcome.UNSUPPORTED) + " unsupported";
    }

    /** The report as JSON: {@code {"summary": ..., "lines": [{"line", "text", "outcome", "detail"}]}}. */
    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("summary", summary());
        List<Map<String, Object>> lines = new ArrayList<>();
        for (Entry e : entries()) {
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("line", e.line());
            line.put("text", e.text());
            line.put("outcome", e.outcome().label());
            line.put("detail", e.detail());
            lines.add(line);
        }
        root.put("lines", lines);
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("maps of strings and numbers always serialize", e);
        }
    }
}
