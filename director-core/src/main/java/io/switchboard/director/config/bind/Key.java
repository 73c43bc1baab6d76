package io.switchboard.director.config.bind;

import java.util.List;
import java.util.Objects;

/**
 * One key of a configuration section, declared once: its name, its type, its default (or that it is
 * required) and a one-line note. The declaration is what {@link Section} accepts and checks its
 * getters against, and what {@code switchboard config-reference} prints, so the reference cannot
 * drift from the keys the binders read.
 *
 * <p>Declared as {@code Key.integer("weight", 1, 255).byDefault("8").note("...")}; a key whose value is
 * a mapping, a list of mappings or a mapping of names names the {@link Schema} of that mapping.
 */
public final class Key {

    /** What a key holds; which {@link Section} getters may read it. */
    public enum Kind {
        STRING("string"), INTEGER("integer"), BOOLEAN("boolean"), DURATION("duration"), ADDRESS("address"),
        ENDPOINT("endpoint"), NAME("name"), SECRET("secret"), PATH("path"), ENUM("one of"), MAPPING("mapping"),
        LIST("list"), NAMED("mapping of name →");

        final String shown;

        Kind(String shown) {
            this.shown = shown;
        }
    }

    private final String name;
    private final Kind kind;
    private final String detail;
    private final List<String> allowed;
    private final Schema child;
    private final int min;
    private final int max;
    private final String byDefault;
    private final String note;

    private Key(String name, Kind kind, String detail, List<String> allowed, Schema child, int min, int max,
            String byDefault, String note) {
        this.name = Objects.requireNonNull(name, "name");
        this.kind = kind;
        this.detail = detail;
        this.allowed = List.copyOf(allowed);
        this.child = child;
        this.min = min;
        this.max = max;
        this.byDefault = byDefault;
        this.note = note;
    }

    private static Key of(String name, Kind kind) {
        return new Key(name, kind, "", List.of(), null, 0, 0, "none", "");
    }

    public static Key string(String name) {
        return of(name, Kind.STRING);
    }

    /** An integer in {@code min..max}; {@code Integer.MAX_VALUE} as max means "at least min". */
    public static Key integer(String name, int min, int max) {
        return new Key(name, Kind.INTEGER, "", List.of(), null, min, max, "none", "");
    }

    public static Key bool(String name) {
        return of(name, Kind.BOOLEAN);
    }

    /** A duration greater than zero. */
    public static Key duration(String name) {
        return of(name, Kind.DURATION);
    }

    public static Key address(String name) {
        return of(name, Kind.ADDRESS);
    }

    public static Key endpoint(String name) {
        return of(name, Kind.ENDPOINT);
    }

    /** A name of the document (a farm's, a virtual server's, a group's). */
    public static Key name(String name) {
        return of(name, Kind.NAME);
    }

    public static Key secret(String name) {
        Secrets.declare(name);
        return of(name, Kind.SECRET);
    }

    public static Key path(String name) {
        return of(name, Kind.PATH);
    }

    /** One of the given words. */
    public static Key oneOf(String name, List<String> allowed) {
        return new Key(name, Kind.ENUM, "", allowed, null, 0, 0, "none", "");
    }

    /** A mapping read as a section of its own. */
    public static Key mapping(String name, Schema schema) {
        return new Key(name, Kind.MAPPING, "", List.of(), schema, 0, 0, "none", "");
    }

    /** A list of scalars, e.g. {@code "strings"} or {@code "subnets or addresses"}. */
    public static Key list(String name, String items) {
        return new Key(name, Kind.LIST, items, List.of(), null, 0, 0, "none", "");
    }

    /** A list of mappings, each read as a section. */
    public static Key listOf(String name, Schema items) {
        return new Key(name, Kind.LIST, "", List.of(), items, 0, 0, "none", "");
    }

    /**
     * A mapping whose keys are names chosen by the operator (farms'), each value a scalar, e.g.
     * {@code "integer 0..65535"}.
     */
    public static Key namedValues(String name, String values) {
        return new Key(name, Kind.NAMED, values, List.of(), null, 0, 0, "none", "");
    }

    /** A mapping whose keys are names chosen by the operator, each value a section. */
    public static Key named(String name, Schema values) {
        return new Key(name, Kind.NAMED, "", List.of(), values, 0, 0, "none", "");
    }

    /** The default, as the reference shows it ({@code 8}, {@code 60s}, "the cluster port"). */
    public Key byDefault(String text) {
        return new Key(name, kind, detail, allowed, child, min, max, text, note);
    }

    /**
     * The default as the binder's own constant, so that the reference shows what the binder uses:
     * a duration as written in the document ({@code 24h}), a collection as a YAML list, anything else
     * as its text, each in backquotes.
     */
    public Key defaultValue(Object value) {
        return byDefault("`" + shown(value) + "`");
    }

    private static String shown(Object value) {
        if (value instanceof java.time.Duration d) {
            return Durations.format(d);
        }
        if (value instanceof java.util.Collection<?> c) {
            return "[" + String.join(", ", c.stream().map(Key::shown).sorted(Key::numbersFirst).toList()) + "]";
        }
        if (value instanceof java.util.Optional<?> o) {
            return o.map(Key::shown).orElse("none");
        }
        return String.valueOf(value);
    }

    /** Set elements in a stable order: numbers by value, words alphabetically. */
    private static int numbersFirst(String a, String b) {
        try {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        } catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }

    public Key required() {
        return byDefault("**required**");
    }

    public Key note(String text) {
        return new Key(name, kind, detail, allowed, child, min, max, byDefault, text);
    }

    /** The type shown in a different words than the kind's ("address or `any`", "list of sticky keys"). */
    public Key shownAs(String type) {
        return new Key(name, kind, type, allowed, child, min, max, byDefault, note);
    }

    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    public List<String> allowed() {
        return allowed;
    }

    /** The schema of the mapping(s) this key holds, or null. */
    public Schema child() {
        return child;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    public String byDefault() {
        return byDefault;
    }

    public String note() {
        return note;
    }

    /** The type column of the reference. */
    public String type() {
        if (!detail.isEmpty() && kind != Kind.LIST && kind != Kind.NAMED) {
            return detail;
        }
        switch (kind) {
            case INTEGER:
                return max == Integer.MAX_VALUE ? "integer ≥ " + min : "integer " + min + ".." + max;
            case ENUM:
                return String.join(" \\| ", allowed.stream().map(a -> "`" + a + "`").toList());
            case LIST:
                return child != null ? "list of mappings" : "list of " + detail;
            case NAMED:
                return "mapping of name → " + (child != null ? "mapping" : detail);
            default:
                return kind.shown;
        }
    }

    /** Refuses reading this key as {@code wanted}. */
    void check(String path, Kind... wanted) {
        for (Kind k : wanted) {
            if (k == kind) {
                return;
            }
        }
        throw new IllegalStateException(path + " is declared as " + kind + ", not read as " + List.of(wanted));
    }

    @Override
    public String toString() {
        return name + ": " + type();
    }
}
