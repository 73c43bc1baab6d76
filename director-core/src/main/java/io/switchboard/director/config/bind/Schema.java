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
 */
public final class Schema {

    private final String title;
    private final Map<String, Key> keys = new LinkedHashMap<>();

    private Schema(String title, List<Key> keys) {
        this.title = title;
        for (Key key : keys) {
            if (this.keys.putIfAbsent(key.name(), key) != null) {
                throw new IllegalArgumentException("key " + key.name() + " declared twice in " + title);
            }
        }
    }

    /** @param title what the section is, for the reference ("a real of a farm") */
    public static Schema of(String title, Key... keys) {
        return new Schema(title, List.of(keys));
    }

    public static Schema of(String title, List<Key> keys) {
        return new Schema(title, keys);
    }

    /** A section of a plug-in or binder not declared in full yet: its key names only. */
    public static Schema undeclared(String title, List<String> names) {
        return new Schema(title, names.stream().map(Key::undeclared).toList());
    }

    /** This schema and {@code more} keys (a plug-in's keys of a virtual server or a real). */
    public Schema with(List<Key> more) {
        List<Key> all = new ArrayList<>(keys.values());
        all.addAll(more);
        return new Schema(title, all);
    }

    public String title() {
        return title;
    }

    public List<Key> keys() {
        return List.copyOf(keys.values());
    }

    public List<String> names() {
        return List.copyOf(keys.keySet());
    }

    public Optional<Key> key(String name) {
        return Optional.ofNullable(keys.get(name));
    }
}
