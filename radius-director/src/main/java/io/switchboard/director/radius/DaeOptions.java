package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import java.util.List;
import java.util.Objects;

/**
 * The settings of a {@code service: radius-dae} virtual server, the director's Dynamic Authorization
 * listener (RFC 5176; a proxy in the sense of RFC 8559): the NASes it relays CoA- and
 * Disconnect-Requests to ({@code clients:}, each with its secret and DAE port) and the sessions it
 * routes them by ({@code dae: {sessions: ...}}). Its farm holds the AAA servers allowed to send them,
 * each verified with its {@code secret}.
 *
 * @param nases    the NASes; the entry with the longest matching prefix applies
 * @param sessions the sticky group (or name) of the {@code radius} virtual servers whose accounting
 *                 teaches the sessions ({@code radius: {dae-sessions: ...}})
 */
public record DaeOptions(List<Nas> nases, String sessions) implements ServiceOptions {

    /** RFC 5176 §3: the UDP port of the NAS's Dynamic Authorization Server. */
    public static final int DEFAULT_DAE_PORT = 3799;

    public DaeOptions {
        nases = List.copyOf(nases);
        Objects.requireNonNull(sessions, "sessions");
    }

    /**
     * A NAS network, its secret (as in the {@code radius} virtual server's client entry) and the port
     * of its Dynamic Authorization Server.
     */
    public record Nas(RadiusOptions.Client client, int daePort) {

        public Nas {
            Objects.requireNonNull(client, "client");
            if (daePort < 1 || daePort > 65535) {
                throw new IllegalArgumentException("dae port 1..65535: " + daePort);
            }
        }
    }
}
