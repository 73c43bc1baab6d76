package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.OptionsBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code service: radius-dae}: the NASes ({@code clients:}, each {@code address} or {@code subnet}
 * with its {@code secret} and {@code dae-port}) and the {@code dae:} block ({@code sessions}).
 */
public final class DaeOptionsBinder implements OptionsBinder {

    public static final List<String> NAS_KEYS = List.of("address", "subnet", "secret", "dae-port");
    public static final List<String> DAE_KEYS = List.of("sessions");

    @Override
    public List<String> keys() {
        return List.of("clients", "dae");
    }

    @Override
    public Optional<ServiceOptions> bind(Section vs) {
        List<ConfigError> errors = vs.errors();
        int before = errors.size();
        List<DaeOptions.Nas> nases = new ArrayList<>();
        // The DAE plane binds explicitly, as the cluster and the admin API do: Disconnect- and
        // CoA-Requests (RFC 5176 §2.1) change subscribers' sessions, and are taken on one address only.
        vs.endpoint("listen").filter(listen -> listen.address().isAnyLocalAddress()).ifPresent(listen ->
                vs.error(vs.pathOf("listen"), "every interface: name the address the AAA servers send"
                        + " Disconnect- and CoA-Requests to"));
        if (vs.require("clients", "required for service radius-dae (a list of {subnet|address, secret, dae-port})")) {
            vs.list("clients").ifPresent(items -> {
                if (items.isEmpty()) {
                    vs.error(vs.pathOf("clients"), "must list at least one client");
                }
                for (int i = 0; i < items.size(); i++) {
                    String path = ConfigPath.index(vs.pathOf("clients"), i);
                    Section.open(items.get(i), path, errors, NAS_KEYS).ifPresent(c -> {
                        Optional<Integer> port = c.integer("dae-port", 1, 65535);
                        RadiusOptionsBinder.client(c).ifPresent(client ->
                                nases.add(new DaeOptions.Nas(client, port.orElse(DaeOptions.DEFAULT_DAE_PORT))));
                    });
                }
            });
        }
        Optional<String> sessions = Optional.empty();
        if (vs.require("dae", "required for service radius-dae ({sessions: the radius virtual server or its sticky group})")) {
            Optional<Section> dae = vs.section("dae", DAE_KEYS);
            if (dae.isPresent() && dae.get().require("sessions", "required (the radius virtual server or its sticky group)")) {
                sessions = dae.get().string("sessions");
            }
        }
        if (errors.size() > before || sessions.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new DaeOptions(nases, sessions.get()));
    }
}
