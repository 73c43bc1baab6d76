package io.switchboard.app.config;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ClientFarm;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A virtual server's {@code client-farms}: client-assigned load balancing (IOS SLB "Client-Assigned
 * Load Balancing"), a list of {@code {clients: [SUBNET, ...], farm: NAME}}. A subnet is given once in
 * the whole list, so that which farm serves a client never depends on the order of the entries.
 * Whether each farm exists is {@link ConfigCrossChecks}'s to say.
 */
final class ClientFarmsBinder {

    static final Schema CLIENT_FARM = Schema.of("a client-assigned farm (IOS SLB client-assigned load balancing)",
            Key.list("clients", "subnets or addresses").required().note("At least one; `ADDRESS/PREFIX` or a plain"
                    + " address (a /32 or /128). A subnet appears once in all of `client-farms`; the longest prefix wins."),
            Key.name("farm").required().note("The farm serving these clients; must exist."));

    private final List<ConfigError> errors;

    ClientFarmsBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    /** The entries, empty without the key; empty Optional after an error. */
    Optional<List<ClientFarm>> bind(Section server) {
        if (!server.has("client-farms")) {
            return Optional.of(List.of());
        }
        int before = errors.size();
        List<ClientFarm> entries = new ArrayList<>();
        Map<Subnet, String> seen = new HashMap<>();
        server.list("client-farms").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                server.item("client-farms", items, i).ifPresent(s -> entry(s, seen).ifPresent(entries::add));
            }
        });
        return errors.size() == before ? Optional.of(entries) : Optional.empty();
    }

    private Optional<ClientFarm> entry(Section s, Map<Subnet, String> seen) {
        boolean hasFarm = s.require("farm", "required: the farm that serves these clients");
        boolean hasClients = s.require("clients", "required: the client subnets, e.g. [10.4.0.0/16]");
        Optional<String> farm = hasFarm ? s.string("farm") : Optional.empty();
        List<Subnet> clients = new ArrayList<>();
        if (hasClients) {
            s.list("clients").ifPresent(items -> {
                if (items.isEmpty()) {
                    s.error(s.pathOf("clients"), "must list at least one subnet");
                }
                for (int i = 0; i < items.size(); i++) {
                    String path = ConfigPath.index(s.pathOf("clients"), i);
                    subnet(items.get(i), path).ifPresent(subnet -> {
                        String first = seen.putIfAbsent(subnet, path);
                        if (first != null) {
                            s.error(path, subnet + " is already at " + ConfigPath.shown(first));
                        } else {
                            clients.add(subnet);
                        }
                    });
                }
            });
        }
        return farm.isPresent() && !clients.isEmpty() ? Optional.of(new ClientFarm(clients, farm.get()))
                : Optional.empty();
    }

    private Optional<Subnet> subnet(YamlNode node, String path) {
        return Section.string(node, path, errors).flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseSubnet(text.contains("/") ? text
                        : text + (text.contains(":") ? "/128" : "/32")));
            } catch (IllegalArgumentException e) {
                errors.add(new ConfigError(ConfigPath.shown(path), e.getMessage()));
                return Optional.empty();
            }
        });
    }
}
