package io.switchboard.director.spi;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Section;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A kind of health check, as named by {@code probes.NAME.type}: the keys its section takes besides
 * the common ones ({@code interval}, {@code timeout}, {@code failures}, {@code port}) and the binder
 * that reads them into the type's {@link ProbeCheck}, which in turn creates the probe. The engine
 * defines the generic types (ping, tcp, http, dns, udp); a plug-in module declares its protocol's
 * in {@link PluginModule#probeTypes()}. The loader refuses a key of one type on a probe of another,
 * naming the type it belongs to, so two types must not share a key.
 */
public interface ProbeType {

    /** The name under {@code type:}. */
    String name();

    /**
     * The keys of this type's sections besides the common ones, in the order errors list them, each
     * with its type, default and description: the type's part of the configuration schema, which the
     * section {@link #bind} is given reads them by and {@code switchboard config-reference} prints.
     */
    List<Key> declaration();

    /** The names of {@link #declaration()}. */
    default List<String> keys() {
        return declaration().stream().map(Key::name).toList();
    }

    /**
     * Reads this type's keys of one probe section; reports problems through the section, with their
     * paths, and returns empty when there were any.
     */
    Optional<ProbeCheck> bind(Section probe);

    /** A type whose section {@code binder} reads. */
    static ProbeType of(String name, List<Key> keys, Function<Section, Optional<ProbeCheck>> binder) {
        List<Key> own = List.copyOf(keys);
        return new ProbeType() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<Key> declaration() {
                return own;
            }

            @Override
            public Optional<ProbeCheck> bind(Section probe) {
                return binder.apply(probe);
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
