package io.switchboard.app.reload;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.ServiceSpec;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The part of a reload's validation that only the running host can do: every address a reload would
 * newly bind (a virtual server added, or moved to another {@code listen}) can be bound now. At start-up
 * a node that cannot bind does not start; a running node must not take a configuration it cannot
 * serve, so the address is tried (bound and closed again) before anything changes, and an address
 * that cannot be bound is an error of the new configuration, by path.
 */
final class ListenAddresses {

    private ListenAddresses() {
    }

    /** Why the addresses {@code next} newly binds cannot be bound; empty when all can. */
    static List<ConfigError> unbindable(SwitchboardConfig running, SwitchboardConfig next) {
        // Held by this node already: a virtual server's own sockets share them (SO_REUSEPORT).
        Set<Endpoint> held = new HashSet<>();
        running.virtualServers().values().forEach(vs -> held.add(vs.listen()));
        List<ConfigError> errors = new ArrayList<>();
        for (VirtualServerConfig vs : next.virtualServers().values()) {
            if (held.contains(vs.listen()) || vs.listen().port() == 0) {
                continue; // an ephemeral port is always found
            }
            String why = tryBind(vs.listen(), tcp(vs));
            if (why != null) {
                errors.add(new ConfigError(ConfigPath.child(ConfigPath.child("virtual-servers", vs.name()), "listen"),
                        "cannot bind " + vs.listen() + ": " + why));
            }
        }
        return errors;
    }

    private static boolean tcp(VirtualServerConfig vs) {
        return Plugins.installed().service(vs.service())
                .map(s -> s.spec().transport() == ServiceSpec.Transport.TCP).orElse(false);
    }

    /** Null when the address could be bound; the reason otherwise. */
    private static String tryBind(Endpoint listen, boolean tcp) {
        try {
            if (tcp) {
                try (ServerSocket socket = new ServerSocket()) {
                    socket.bind(listen.socketAddress());
                }
            } else {
                try (DatagramSocket socket = new DatagramSocket(null)) {
                    socket.bind(listen.socketAddress());
                }
            }
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }
}
