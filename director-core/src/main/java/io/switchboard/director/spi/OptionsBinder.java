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

    /** The virtual-server keys this binder owns (e.g. {@code radius}, {@code clients}). */
    List<String> keys();

    /**
     * The declarations of {@link #keys()} (type, default, note, and the schema of a mapping), which
     * the virtual server's schema holds and {@code switchboard config-reference} prints. Until a
     * binder declares them, its keys are listed without types.
     */
    default List<Key> declaration() {
        return keys().stream().map(Key::undeclared).toList();
    }

    /**
     * Reads this binder's keys of one virtual server; reports problems through the section, with
     * their paths, and returns empty when there were any.
     */
    Optional<ServiceOptions> bind(Section virtualServer);
}
