package io.switchboard.app;

import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.udp.DatagramService;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/** The protocol plug-ins of this build, found through {@code META-INF/services}. */
public final class Services {

    private final Map<ServiceKind, DatagramService> byKind = new EnumMap<>(ServiceKind.class);

    private Services() {
        for (DatagramService service : ServiceLoader.load(DatagramService.class)) {
            byKind.put(service.kind(), service);
        }
    }

    public static Services discover() {
        return new Services();
    }

    public Set<ServiceKind> available() {
        return Collections.unmodifiableSet(byKind.keySet());
    }

    /** The plug-in for a validated virtual server (validation has checked that it exists). */
    public DatagramService forVirtualServer(VirtualServerConfig vs) {
        DatagramService service = byKind.get(vs.service());
        if (service == null) {
            throw new IllegalStateException("no plug-in for service " + vs.service().configName());
        }
        return service;
    }
}
