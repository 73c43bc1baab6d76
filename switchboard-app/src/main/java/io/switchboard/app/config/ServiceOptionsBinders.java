package io.switchboard.app.config;

import io.switchboard.director.config.ServiceKind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

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

    static Map<ServiceKind, ServiceOptionsBinder> byService() {
        Map<ServiceKind, ServiceOptionsBinder> map = new EnumMap<>(ServiceKind.class);
        ALL.forEach(b -> b.services().forEach(service -> map.put(service, b)));
        return map;
    }

    /** {@code base} and every key a binder owns: the keys a virtual server may have. */
    static List<String> withOwnedKeys(List<String> base) {
        List<String> keys = new ArrayList<>(base);
        ALL.forEach(b -> b.keys().stream().filter(k -> !keys.contains(k)).forEach(keys::add));
        return List.copyOf(keys);
    }
}
