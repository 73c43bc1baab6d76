package io.switchboard.app.ios;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A small YAML document under construction, block style, with a comment allowed on every key: what
 * the translation writes so that each key can cite the IOS line it came from (Jackson's YAML writer
 * keeps no comments). Strings that could be read as anything else are double-quoted.
 */
final class YamlOut {

    /** A node: a scalar (already in YAML form), a mapping or a sequence. */
    sealed interface Node permits Scalar, Mapping, Sequence {
    }

    record Scalar(String yaml) implements Node {
    }

    record Sequence(List<Node> items) implements Node {
    }

    /** An ordered mapping; {@link #put} appends. */
    static final class Mapping implements Node {
        private record Entry(String key, Node value, String comment) {
        }

        private final List<Entry> entries = new ArrayList<>();

        Mapping put(String key, Node value, String comment) {
            entries.add(new Entry(key, value, comment));
            return this;
        }

        Mapping put(String key, Node value) {
            return put(key, value, null);
        }

        /** A new mapping under {@code key}. */
        Mapping child(String key, String comment) {
            Mapping m = new Mapping();
            put(key, m, comment);
            return m;
        }
    }

    /**
     * Written unquoted: names, dotted addresses (with a prefix) and IPv4 endpoints. Anything else with
     * a colon is quoted: YAML 1.1 reads {@code 12:34:56} as a base-60 number.
     */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_./-]*|[0-9][0-9.]*\\.[0-9]+(/[0-9]+)?"
            + "|[0-9]+(\\.[0-9]+){3}:[0-9]+");
    private static final java.util.Set<String> RESERVED = java.util.Set.of("true", "false", "yes", "no", "on", "off",
            "null", "y", "n", "~");
    private static final ObjectMapper JSON = new ObjectMapper();

    private YamlOut() {
    }

    static Scalar string(String text) {
        if (PLAIN.matcher(text).matches() && !RESERVED.contains(text.toLowerCase(java.util.Locale.ROOT))
                && !text.matches("[0-9]+(\\.[0-9]+)?")) {
            return new Scalar(text);
        }
        try {
            return new Scalar(JSON.writeValueAsString(text)); // a JSON string is a YAML double-quoted scalar
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string always serializes", e);
        }
    }

    static Scalar number(long n) {
        return new Scalar(Long.toString(n));
    }

    static Scalar bool(boolean b) {
        return new Scalar(Boolean.toString(b));
    }

    /** In the largest unit that holds it exactly ({@code 1h}, {@code 90s}, {@code 250ms}). */
    static Scalar duration(Duration d) {
        return new Scalar(io.switchboard.director.config.bind.Durations.format(d));
    }

    static String render(String header, Mapping root) {
        StringBuilder out = new StringBuilder();
        header.lines().forEach(line -> out.append("# ").append(line).append('\n'));
        mapping(out, root, 0, null);
        return out.toString();
    }

    /** Writes a mapping at {@code indent}; its first key after {@code firstPrefix} ("- ") when given. */
    private static void mapping(StringBuilder out, Mapping m, int indent, String firstPrefix) {
        boolean first = true;
        for (Mapping.Entry e : m.entries) {
            String pad = first && firstPrefix != null ? " ".repeat(indent - 2) + firstPrefix : " ".repeat(indent);
            first = false;
            StringBuilder line = new StringBuilder(pad).append(e.key()).append(':');
            if (e.value() instanceof Scalar s) {
                line.append(' ').append(s.yaml());
                end(out, line, e.comment());
            } else if (e.value() instanceof Mapping child && child.entries.isEmpty()) {
                end(out, line.append(" {}"), e.comment());
            } else if (e.value() instanceof Sequence seq && seq.items().isEmpty()) {
                end(out, line.append(" []"), e.comment());
            } else if (e.value() instanceof Mapping child) {
                end(out, line, e.comment());
                mapping(out, child, indent + 2, null);
            } else {
                end(out, line, e.comment());
                for (Node item : ((Sequence) e.value()).items()) {
                    if (item instanceof Mapping im) {
                        mapping(out, im, indent + 4, "- ");
                    } else {
                        out.append(" ".repeat(indent + 2)).append("- ").append(((Scalar) item).yaml()).append('\n');
                    }
                }
            }
        }
    }

    private static void end(StringBuilder out, StringBuilder line, String comment) {
        if (comment != null) {
            while (line.length() < 44) {
                line.append(' ');
            }
            line.append(" # ").append(comment.replace('\n', ' '));
        }
        out.append(line).append('\n');
    }
}
