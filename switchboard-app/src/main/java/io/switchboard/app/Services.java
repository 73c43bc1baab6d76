package io.switchboard.app;

import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.DatagramService;
import java.util.LinkedHashSet;
import java.util.Set;

/** The protocol services of this build, as the plug-in modules on the class path declare them. */
public final class Services {

    private final Plugins plugins;

    private Services(Plugins plugins) {
        this.plugins = plugins;
    }

    public static Services discover() {
        return new Services(Plugins.installed());
    }

    /** The names of the services, in module order. */
    public Set<String> available() {
        Set<String> names = new LinkedHashSet<>();
        plugins.services().forEach(s -> names.add(s.spec().name()));
        return names;
    }

    /** The plug-in for a validated virtual server (validation has checked that it exists). */
    public DatagramService forVirtualServer(VirtualServerConfig vs) {
        return plugins.service(vs.service())
                .orElseThrow(() -> new IllegalStateException("no plug-in for service " + vs.service()));
    }
}
