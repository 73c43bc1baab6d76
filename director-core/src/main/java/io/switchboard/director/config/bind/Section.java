package io.switchboard.director.config.bind;

import io.switchboard.director.config.Endpoint;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * A YAML mapping with a fixed set of keys, read by key into typed values. Every problem goes to the
 * shared error list with its path and the getter returns empty, so that reading carries on and
 * reports everything in one pass. Unknown keys are reported when the section is opened.
 *
 * <p>The configuration loader reads the document's sections with it, and each plug-in module's
 * binders (its virtual servers' options, its probe types, its keys of a real) read theirs, so that
 * every key of every module is checked the same way and reported by path.
 */
public final class Section {

    private static final Pattern DECIMAL_INTEGER = Pattern.compile("[-+]?(0|[1-9][0-9_]*)");

    private final Map<String, YamlNode> entries;
    private final String path;
    private final List<ConfigError> errors;
    private final Schema schema;

    private Section(Map<String, YamlNode> entries, String path, List<ConfigError> errors, Schema schema) {
        this.entries = entries;
        this.path = path;
        this.errors = errors;
        this.schema = schema;
    }

    /**
     * Opens {@code node} as a section with the keys {@code schema} declares; empty (and reported) when
     * it is not a mapping. Other keys are reported as {@code unknown key (known: ...)}.
     */
    public static Optional<Section> open(YamlNode node, String path, List<ConfigError> errors, Schema schema) {
        Optional<YamlNode.Mapping> mapping = mapping(node, path, errors);
        if (mapping.isEmpty()) {
            return Optional.empty();
        }
        List<String> known = schema.names();
        for (String key : mapping.get().entries().keySet()) {
            if (!known.contains(key)) {
                errors.add(new ConfigError(ConfigPath.child(path, key),
                        "unknown key (known: " + String.join(", ", known) + ")"));
            }
        }
        return Optional.of(new Section(mapping.get().entries(), path, errors, schema));
    }

    /**
     * This section read with {@code variant} ({@link Schema#variant} of its own schema): what a
     * service's or a probe type's binder reads, with the keys as that variant declares them. Unknown
     * keys were reported when the section was opened.
     */
    public Section as(Schema variant) {
        return new Section(entries, path, errors, variant);
    }

    /** The declaration of {@code key}; reading a key the section does not declare is a bug. */
    private Key declared(String key, Key.Kind... kinds) {
        Key declared = schema.key(key).orElseThrow(() -> new IllegalStateException(
                "key '" + key + "' is read but not declared in the schema of " + schema.title()));
        if (kinds.length > 0) {
            declared.check(pathOf(key), kinds);
        }
        return declared;
    }

    public Schema schema() {
        return schema;
    }

    public String path() {
        return path;
    }

    /** Where this section reports problems (for binders that open list items as sections). */
    public List<ConfigError> errors() {
        return errors;
    }

    public String pathOf(String key) {
        return ConfigPath.child(path, key);
    }

    public boolean has(String key) {
        declared(key);
        return entries.containsKey(key);
    }

    /** Reports {@code key: message} when the key is absent; true when it is present. */
    public boolean require(String key, String message) {
        if (!has(key)) {
            error(pathOf(key), message);
            return false;
        }
        return true;
    }

    public void error(String errorPath, String message) {
        errors.add(new ConfigError(ConfigPath.shown(errorPath), message));
    }

    public Optional<YamlNode> node(String key) {
        declared(key);
        return Optional.ofNullable(entries.get(key));
    }

    /** The mapping under {@code key}, opened with the schema its declaration names. */
    public Optional<Section> section(String key) {
        Schema child = declared(key, Key.Kind.MAPPING).child();
        return node(key).flatMap(n -> open(n, pathOf(key), errors, child));
    }

    /** Item {@code index} of the list under {@code key}, opened with the schema its declaration names. */
    public Optional<Section> item(String key, List<YamlNode> items, int index) {
        Schema child = declared(key, Key.Kind.LIST).child();
        if (child == null) {
            throw new IllegalStateException(pathOf(key) + " is not declared as a list of mappings");
        }
        return open(items.get(index), ConfigPath.index(pathOf(key), index), errors, child);
    }

    /**
     * The sections under a mapping of names chosen by the operator, each opened with the schema its
     * declaration names, by name in the document's order; empty when the key is absent or not a mapping.
     */
    public Map<String, Section> named(String key) {
        Schema child = declared(key, Key.Kind.NAMED).child();
        if (child == null) {
            throw new IllegalStateException(pathOf(key) + " is not declared as a mapping of names to mappings");
        }
        Map<String, Section> sections = new java.util.LinkedHashMap<>();
        namedEntries(key).ifPresent(m -> m.entries().forEach((name, node) ->
                open(node, ConfigPath.child(pathOf(key), name), errors, child).ifPresent(s -> sections.put(name, s))));
        return sections;
    }

    /** A mapping whose keys are names chosen by the operator (farms, virtual servers). */
    public Optional<YamlNode.Mapping> namedEntries(String key) {
        declared(key, Key.Kind.NAMED);
        return node(key).flatMap(n -> mapping(n, pathOf(key), errors));
    }

    public Optional<List<YamlNode>> list(String key) {
        declared(key, Key.Kind.LIST);
        return node(key).flatMap(n -> list(n, pathOf(key), errors));
    }

    public Optional<String> string(String key) {
        declared(key, Key.Kind.STRING, Key.Kind.NAME, Key.Kind.PATH, Key.Kind.ENUM, Key.Kind.ADDRESS,
                Key.Kind.ENDPOINT);
        return node(key).flatMap(n -> string(n, pathOf(key), errors));
    }

    /**
     * A secret: written here, or {@code { file: PATH }}, or {@code { env: NAME }} ({@link Secrets}),
     * resolved to its plain value.
     */
    public Optional<String> secret(String key) {
        declared(key, Key.Kind.SECRET);
        return node(key).flatMap(n -> Secrets.read(n, pathOf(key), errors));
    }

    /** An integer in {@code min..max}; {@code Integer.MAX_VALUE} as max means "at least min". */
    public Optional<Integer> integer(String key, int min, int max) {
        Key declared = declared(key, Key.Kind.INTEGER);
        if (declared.kind() == Key.Kind.INTEGER && (declared.min() != min || declared.max() != max)) {
            throw new IllegalStateException(pathOf(key) + " is declared " + declared.type() + ", read as "
                    + min + ".." + max);
        }
        return node(key).flatMap(n -> integer(n, pathOf(key), errors, min, max));
    }

    public OptionalInt optionalInt(String key, int min, int max) {
        return integer(key, min, max).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    /** An integer in the range its declaration gives. */
    public Optional<Integer> integer(String key) {
        Key declared = declared(key, Key.Kind.INTEGER);
        return integer(key, declared.min(), declared.max());
    }

    public Optional<Boolean> bool(String key) {
        declared(key, Key.Kind.BOOLEAN);
        return node(key).flatMap(n -> bool(n, pathOf(key), errors));
    }

    /** {@code ADDRESS:PORT} ({@code [v6]:PORT} for IPv6), an error at the key when it is not one. */
    public Optional<Endpoint> endpoint(String key) {
        declared(key, Key.Kind.ENDPOINT);
        return string(key).flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseEndpoint(text));
            } catch (IllegalArgumentException e) {
                error(pathOf(key), e.getMessage());
                return Optional.empty();
            }
        });
    }

    /**
     * Bytes written as text (taken as UTF-8), or as {@code hex:0a0b...} for binary payloads (a probe's
     * request, a key).
     */
    public Optional<byte[]> bytes(String key) {
        return string(key).flatMap(text -> {
            if (!text.startsWith("hex:")) {
                return Optional.of(text.getBytes(StandardCharsets.UTF_8));
            }
            try {
                return Optional.of(HexFormat.of().parseHex(text.substring(4)));
            } catch (IllegalArgumentException e) {
                error(pathOf(key), "hex: must be followed by an even number of hex digits");
                return Optional.empty();
            }
        });
    }

    /** A duration greater than zero. */
    public Optional<Duration> positiveDuration(String key) {
        declared(key, Key.Kind.DURATION);
        return node(key).flatMap(n -> positiveDuration(n, pathOf(key), errors));
    }

    // ---- values of single nodes, for list items as well as keyed entries -------------------------

    public static Optional<YamlNode.Mapping> mapping(YamlNode node, String path, List<ConfigError> errors) {
        if (node instanceof YamlNode.Mapping mapping) {
            return Optional.of(mapping);
        }
        wrongType(node, path, errors, "must be a mapping");
        return Optional.empty();
    }

    public static Optional<List<YamlNode>> list(YamlNode node, String path, List<ConfigError> errors) {
        if (node instanceof YamlNode.Sequence sequence) {
            return Optional.of(sequence.items());
        }
        wrongType(node, path, errors, "must be a list");
        return Optional.empty();
    }

    /**
     * A non-empty string. Numbers are taken as written ({@code 0123} stays {@code 0123}); booleans
     * and null are refused, since {@code on} or {@code no} as a name is almost always a surprise.
     */
    public static Optional<String> string(YamlNode node, String path, List<ConfigError> errors) {
        if (node instanceof YamlNode.Scalar scalar) {
            switch (scalar.kind()) {
                case STRING:
                case INTEGER:
                case DECIMAL:
                    if (scalar.text().isEmpty()) {
                        errors.add(new ConfigError(ConfigPath.shown(path), "must not be empty"));
                        return Optional.empty();
                    }
                    return Optional.of(scalar.text());
                case BOOLEAN:
                    errors.add(new ConfigError(ConfigPath.shown(path),
                            "must be a string, not a boolean (quote it: \"" + scalar.text() + "\")"));
                    return Optional.empty();
                default:
                    break;
            }
        }
        wrongType(node, path, errors, "must be a string");
        return Optional.empty();
    }

    public static Optional<Integer> integer(YamlNode node, String path, List<ConfigError> errors, int min, int max) {
        if (!(node instanceof YamlNode.Scalar scalar) || scalar.kind() != YamlNode.Kind.INTEGER) {
            wrongType(node, path, errors, "must be an integer");
            return Optional.empty();
        }
        if (!DECIMAL_INTEGER.matcher(scalar.text()).matches()) {
            // 0x1F, 0o17 and 010 (octal in YAML 1.1, decimal in 1.2) are not worth the doubt.
            errors.add(new ConfigError(ConfigPath.shown(path),
                    "must be a decimal integer without leading zeros, not '" + scalar.text() + "'"));
            return Optional.empty();
        }
        BigInteger value = new BigInteger(scalar.text().replace("_", ""));
        boolean tooSmall = value.compareTo(BigInteger.valueOf(min)) < 0;
        if (tooSmall || value.compareTo(BigInteger.valueOf(max)) > 0) {
            String message = max != Integer.MAX_VALUE ? "must be " + min + ".." + max
                    : tooSmall ? "must be at least " + min : "must be at most " + max;
            errors.add(new ConfigError(ConfigPath.shown(path), message));
            return Optional.empty();
        }
        return Optional.of(value.intValueExact());
    }

    public static Optional<Boolean> bool(YamlNode node, String path, List<ConfigError> errors) {
        if (node instanceof YamlNode.Scalar scalar && scalar.kind() == YamlNode.Kind.BOOLEAN) {
            String text = scalar.text().toLowerCase(Locale.ROOT);
            return Optional.of(text.equals("true") || text.equals("yes") || text.equals("on"));
        }
        wrongType(node, path, errors, "must be true or false");
        return Optional.empty();
    }

    public static Optional<Duration> positiveDuration(YamlNode node, String path, List<ConfigError> errors) {
        if (!(node instanceof YamlNode.Scalar scalar) || scalar.kind() == YamlNode.Kind.BOOLEAN
                || scalar.kind() == YamlNode.Kind.NULL) {
            wrongType(node, path, errors, Durations.NOT_A_DURATION);
            return Optional.empty();
        }
        try {
            Duration duration = Durations.parse(scalar.text());
            if (duration.isNegative() || duration.isZero()) {
                errors.add(new ConfigError(ConfigPath.shown(path), "must be greater than zero"));
                return Optional.empty();
            }
            return Optional.of(duration);
        } catch (IllegalArgumentException e) {
            errors.add(new ConfigError(ConfigPath.shown(path), e.getMessage()));
            return Optional.empty();
        }
    }

    private static void wrongType(YamlNode node, String path, List<ConfigError> errors, String expected) {
        if (node instanceof YamlNode.Rejected) {
            return; // already reported by YamlTree
        }
        errors.add(new ConfigError(ConfigPath.shown(path), expected + ", not " + node.description()));
    }
}
