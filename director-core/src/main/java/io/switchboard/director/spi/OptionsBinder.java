package io.switchboard.director.spi;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Section;
import java.util.List;
import java.util.Optional;

/**
 * Reads the settings only one service understands — keys of a virtual server such as {@code gtp:},
 * {@code radius:} or {@code clients:} — into the service's {@link ServiceOptions} record. A service
 * declares its binder in its {@link ServiceSpec}; the loader accepts the binder's keys on that
 * service's virtual servers and refuses them, by path, on any other (naming the services that take
 * them). A service without a binder gets {@link ServiceOptions#NONE}.
 */
public interface OptionsBinder {

    /**
     * The virtual-server keys this binder owns (e.g. {@code radius}, {@code clients}), each with its
     * type, default, description and, for a mapping or a list of mappings, the schema of its keys:
     * the plug-in's contribution to the configuration schema. The loader accepts these keys on the
     * service's virtual servers only, {@code switchboard config-reference} prints them, and the
     * section {@link #bind} is given reads them as declared here, so this is their one definition.
     */
    List<Key> declaration();

    /** The names of {@link #declaration()}. */
    default List<String> keys() {
        return declaration().stream().map(Key::name).toList();
    }

    /**
     * Reads this binder's keys of one virtual server; reports problems through the section, with
     * their paths, and returns empty when there were any. The section reads the keys as {@link
     * #declaration()} declares them (its sub-sections are opened with the schemas declared there).
     */
    Optional<ServiceOptions> bind(Section virtualServer);
}
