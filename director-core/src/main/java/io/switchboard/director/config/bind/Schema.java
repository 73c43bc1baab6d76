package io.switchboard.director.config.bind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The keys a configuration section may have, each declared once ({@link Key}), in the order errors
 * and the reference list them. {@link Section#open} takes it: keys not in it are reported, and reading
 * a key it does not declare is a programming error ({@link IllegalStateException}).
 *
 * <p>A section whose further keys depend on the value of one of its keys (a virtual server's on its
 * {@code service}, a probe's on its {@code type}) has <em>variants</em>: the section accepts the
 * keys of every variant, and the binder of one variant reads the section {@linkplain Section#as as}
 * {@link #variant} of its value, so that a key two variants declare differently (a list of
 * subnets for one service, of mappings for another) is read as its own variant declares it.
 */
public final class Schema {

    private final String title;
    private final Map<String, Key> keys = new LinkedHashMap<>();
    private final List<Key> own;
    private final String selector;
    private final Map<String, Schema> variants;

    private Schema(String title, List<Key> own, String selector, Map<String, Schema> variants) {
        this.title = title;
        this.own = List.copyOf(own);
        this.selector = selector;
        this.variants = variants;
        for (Key key : own) {
            if (this.keys.putIfAbsent(key.name(), key) != null) {
                throw new IllegalArgumentException("key " + key.name() + " declared twice in " + title);
            }
        }
        // A name two variants share is accepted once; each variant's binder reads its own declaration.
        variants.values().forEach(v -> v.keys().forEach(k -> keys.putIfAbsent(k.name(), k)));
    }

    /** @param title what the section is, for the reference ("a real of a farm") */
    public static Schema of(String title, Key... keys) {
        return of(title, List.of(keys));
    }

    public static Schema of(String title, List<Key> keys) {
        return new Schema(title, keys, null, Map.of());
    }

    /** This schema and {@code more} keys (a plug-in's keys of a real). */
    public Schema with(List<Key> more) {
        List<Key> all = new ArrayList<>(own);
        all.addAll(more);
        return new Schema(title, all, selector, variants);
    }

    /**
     * This schema with keys that depend on the value of its key {@code selector}: {@code variants}
     * maps each value to the keys it adds (several values may map to one schema).
     */
    public Schema withVariants(String selector, Map<String, Schema> variants) {
        if (!keys.containsKey(selector)) {
            throw new IllegalArgumentException(selector + " is not a key of " + title);
        }
        return new Schema(title, own, selector, new LinkedHashMap<>(variants));
    }

    /**
     * The keys of the section when its selector has {@code value}: its own keys and that variant's,
     * the variant's replacing its own of the same name; this schema when there is no such variant.
     */
    public Schema variant(String value) {
        Schema v = variants.get(value);
        if (v == null) {
            return this;
        }
        Map<String, Key> merged = new LinkedHashMap<>();
        own.forEach(k -> merged.put(k.name(), k));
        v.keys().forEach(k -> merged.put(k.name(), k));
        return new Schema(title, List.copyOf(merged.values()), null, Map.of());
    }

    public String title() {
        return title;
    }

    /** Every key the section accepts: its own, then each variant's not named before. */
    public List<Key> keys() {
        return List.copyOf(keys.values());
    }

    /** The keys every variant has. */
    public List<Key> ownKeys() {
        return own;
    }

    /** The key whose value selects a variant, if the schema has variants. */
    public Optional<String> selector() {
        return Optional.ofNullable(selector);
    }

    /** The variants by the selector's value, in the order given. */
    public Map<String, Schema> variants() {
        return java.util.Collections.unmodifiableMap(variants);
    }

    public List<String> names() {
        return List.copyOf(keys.keySet());
    }

    public Optional<Key> key(String name) {
        return Optional.ofNullable(keys.get(name));
    }
}
