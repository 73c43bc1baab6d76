package io.switchboard.app.config;

import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.ServiceOptions;
import java.util.List;
import java.util.Optional;

/**
 * Reads the {@code options:} section of a virtual server for one service into that service's
 * {@link ServiceOptions} record. Reports problems through the section (with their paths) and returns
 * empty when there were any.
 */
interface ServiceOptionsBinder {

    ServiceKind service();

    /** The keys the section may hold; any other is reported as unknown. */
    List<String> keys();

    /** @param section the {@code options:} section, or empty when the virtual server has none */
    Optional<ServiceOptions> bind(Optional<Section> section);
}
