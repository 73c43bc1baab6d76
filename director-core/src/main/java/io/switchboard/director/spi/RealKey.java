package io.switchboard.director.spi;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Section;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A key of a real (under {@code farms.NAME.reals[i]}) that only a plug-in reads, such as RADIUS's
 * {@code secret}: its name, what it is (for comments the IOS exporter writes), how it is read from
 * the real's section and how its value is written back. A module declares its keys in
 * {@link PluginModule#realKeys()}; the loader accepts them on every real, reports their errors by
 * path like the engine's own keys, and keeps the values in {@link
 * io.switchboard.director.config.RealConfig#values()}, where the plug-in looks them up with the
 * same constant.
 *
 * <p>Keys are equal when their names are.
 *
 * @param <T> the value's type
 */
public final class RealKey<T> {

    private final String name;
    private final String description;
    private final Class<T> type;
    private final Function<Section, Optional<T>> binder;
    private final Function<T, String> print;
    private final Key key;

    private RealKey(Key key, String description, Class<T> type, Function<Section, Optional<T>> binder,
            Function<T, String> print) {
        this.key = Objects.requireNonNull(key, "key");
        String name = key.name();
        this.name = Objects.requireNonNull(name, "name");
        this.description = Objects.requireNonNull(description, "description");
        this.type = Objects.requireNonNull(type, "type");
        this.binder = Objects.requireNonNull(binder, "binder");
        this.print = Objects.requireNonNull(print, "print");
    }

    /**
     * @param key    the key's declaration (type, default, description), which the real's schema holds
     *               and the reference prints; the binder reads the key as declared
     * @param binder reads the key from a real's section (where it is present), reporting problems
     *               through the section; empty after an error
     * @param print  the value as written in a configuration file
     */
    public static <T> RealKey<T> of(Key key, String description, Class<T> type,
            Function<Section, Optional<T>> binder, Function<T, String> print) {
        return new RealKey<>(key, description, type, binder, print);
    }

    /** A non-empty string. */
    public static RealKey<String> string(String name, String description) {
        return of(Key.string(name).note(description), description, String.class, real -> real.string(name),
                Function.identity());
    }

    /**
     * A secret ({@link Section#secret}: in the document, or {@code { file: }} or {@code { env: }}),
     * resolved at binding time. Written back as the plain value: an IOS import writes the secret the
     * IOS text held.
     */
    public static RealKey<String> secret(String name, String description) {
        return of(Key.secret(name).note(description), description, String.class, real -> real.secret(name),
                Function.identity());
    }

    /** The name in the configuration. */
    public String name() {
        return name;
    }

    /** The key's declaration, which the real's {@link io.switchboard.director.config.bind.Schema} holds. */
    public Key key() {
        return key;
    }

    /** What the value is, as a phrase ("the real's RADIUS secret"). */
    public String description() {
        return description;
    }

    /** The value of this key in a real's section; empty (reported) when it is not valid. */
    public Optional<T> bind(Section real) {
        return binder.apply(real);
    }

    /** This key's value among a real's plug-in values. */
    public Optional<T> in(Map<RealKey<?>, Object> values) {
        // Asked per answer on the packet path: no bound method reference (an object per call).
        Object value = values.get(this);
        return value == null ? Optional.empty() : Optional.of(type.cast(value));
    }

    /** {@code value} (one of this key's) as written in a configuration file. */
    public String print(Object value) {
        return print.apply(type.cast(value));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RealKey<?> k && k.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
