package io.switchboard.app.config;

import java.util.ArrayList;
import java.util.List;

/** The options binder of each service that has options. One line per plug-in. */
final class ServiceOptionsBinders {

    private static final List<ServiceOptionsBinder> ALL = List.of(
            new TcpOptionsBinder(),
            new RadiusOptionsBinder(),
            new GtpOptionsBinder(),
            new HaOptionsBinder(),
            new AsnOptionsBinder()
    );

    private ServiceOptionsBinders() {
    }

    static List<ServiceOptionsBinder> all() {
        return ALL;
    }

    /** The binder of the service named {@code service}, or null when it takes no options. */
    static ServiceOptionsBinder of(String service) {
        return ALL.stream().filter(b -> b.services().contains(service)).findFirst().orElse(null);
    }

    /** {@code base} and every key a binder owns: the keys a virtual server may have. */
    static List<String> withOwnedKeys(List<String> base) {
        List<String> keys = new ArrayList<>(base);
        ALL.forEach(b -> b.keys().stream().filter(k -> !keys.contains(k)).forEach(keys::add));
        return List.copyOf(keys);
    }
}
