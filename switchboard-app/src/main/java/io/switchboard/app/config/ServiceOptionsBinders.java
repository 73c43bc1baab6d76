package io.switchboard.app.config;

import io.switchboard.director.config.ServiceKind;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The options binder of each service that has options. One line per plug-in. */
final class ServiceOptionsBinders {

    private static final List<ServiceOptionsBinder> ALL = List.of(
    );

    private ServiceOptionsBinders() {
    }

    static Map<ServiceKind, ServiceOptionsBinder> byService() {
        Map<ServiceKind, ServiceOptionsBinder> map = new EnumMap<>(ServiceKind.class);
        ALL.forEach(b -> map.put(b.service(), b));
        return map;
    }
}
