package io.switchboard.director.radius;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.ConfigError;
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

    static final Schema NAS = Schema.of("a NAS that takes Dynamic Authorization requests",
            RadiusOptionsBinder.withPeerKeys(Key.integer("dae-port", 1, 65535).defaultValue(DaeOptions.DEFAULT_DAE_PORT)
                    .note("The port of the NAS's Dynamic Authorization Server (RFC 5176 §3).")));

    static final Schema DAE = Schema.of("where the sessions are learned",
            Key.name("sessions").required()
                    .note("The sticky group (or name) of the `radius` virtual servers with `radius.dae-sessions`."));

    private static final List<Key> DECLARATION = List.of(
            Key.listOf("clients", NAS).required().note("`radius-dae`: the NASes, each `address` or `subnet` with its"
                    + " `secret` (as in the accounting virtual server's entry) and `dae-port`."),
            Key.mapping("dae", DAE).required().note("`radius-dae`: `{ sessions: NAME }`."));

    @Override
    public List<Key> declaration() {
        return DECLARATION;
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
                    vs.item("clients", items, i).ifPresent(c -> {
                        Optional<Integer> port = c.integer("dae-port");
                        RadiusOptionsBinder.client(c).ifPresent(client ->
                                nases.add(new DaeOptions.Nas(client, port.orElse(DaeOptions.DEFAULT_DAE_PORT))));
                    });
                }
            });
        }
        Optional<String> sessions = Optional.empty();
        if (vs.require("dae", "required for service radius-dae ({sessions: the radius virtual server or its sticky group})")) {
            Optional<Section> dae = vs.section("dae");
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
