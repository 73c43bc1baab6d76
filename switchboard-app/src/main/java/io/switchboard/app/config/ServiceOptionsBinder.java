package io.switchboard.app.config;

import io.switchboard.director.config.ServiceOptions;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the settings only some services understand — keys of a virtual server such as {@code gtp:},
 * {@code radius:} or {@code clients:} — into the service's {@link ServiceOptions} record. Each
 * plug-in's binder owns its keys: the loader accepts them on a virtual server of one of
 * {@link #services()} and refuses them, by path, on any other.
 */
interface ServiceOptionsBinder {

    /** The services whose virtual servers this binder reads. */
    Set<String> services();

    /** The virtual-server keys this binder owns (e.g. {@code radius}, {@code clients}). */
    List<String> keys();

    /**
     * Reads this binder's keys of one virtual server; reports problems through the section, with
     * their paths, and returns empty when there were any.
     */
    Optional<ServiceOptions> bind(Section virtualServer);
}
