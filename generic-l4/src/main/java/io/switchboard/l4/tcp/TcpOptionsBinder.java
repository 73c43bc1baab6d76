package io.switchboard.l4.tcp;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.OptionsBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code clients:} (the access list: subnets or addresses) and {@code tcp:} (connect timeout,
 * reassign, SYN guard, idle and delay timers) of a {@code tcp} virtual server.
 */
public final class TcpOptionsBinder implements OptionsBinder {

    public static final List<String> TCP_KEYS = List.of("connect-timeout", "reassign", "syn-guard", "idle", "delay");
    public static final List<String> SYN_GUARD_KEYS = List.of("limit", "interval");

    @Override
    public List<String> keys() {
        return List.of("clients", "tcp");
    }

    @Override
    public Optional<ServiceOptions> bind(Section server) {
        int errorsBefore = server.errors().size();
        List<Subnet> clients = new ArrayList<>();
        server.list("clients").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(server.pathOf("clients"), i);
                Section.string(items.get(i), path, server.errors())
                        .flatMap(text -> subnet(text, path, server)).ifPresent(clients::add);
            }
        });
        Duration connectTimeout = TcpOptions.DEFAULT_CONNECT_TIMEOUT;
        int reassign = TcpOptions.DEFAULT_REASSIGN;
        OptionalInt synLimit = OptionalInt.empty();
        Duration synInterval = TcpOptions.DEFAULT_SYN_INTERVAL;
        Duration idle = TcpOptions.DEFAULT_IDLE;
        Duration delay = TcpOptions.DEFAULT_DELAY;
        if (server.has("tcp")) {
            Optional<Section> tcp = server.section("tcp", TCP_KEYS);
            if (tcp.isEmpty()) {
                return Optional.empty();
            }
            connectTimeout = tcp.get().positiveDuration("connect-timeout").orElse(connectTimeout);
            reassign = tcp.get().integer("reassign", 1, 16).orElse(reassign);
            idle = tcp.get().positiveDuration("idle").orElse(idle);
            delay = tcp.get().positiveDuration("delay").orElse(delay);
            if (tcp.get().has("syn-guard")) {
                Optional<Section> guard = tcp.get().section("syn-guard", SYN_GUARD_KEYS);
                if (guard.isEmpty()) {
                    return Optional.empty();
                }
                if (guard.get().require("limit", "required: new connections allowed per interval")) {
                    synLimit = guard.get().optionalInt("limit", 1, Integer.MAX_VALUE);
                }
                synInterval = guard.get().positiveDuration("interval").orElse(synInterval);
            }
        }
        return server.errors().size() == errorsBefore
                ? Optional.of(new TcpOptions(clients, connectTimeout, reassign, synLimit, synInterval, idle, delay))
                : Optional.empty();
    }

    private static Optional<Subnet> subnet(String text, String path, Section s) {
        try {
            int slash = text.indexOf('/');
            var address = AddressLiterals.parseAddress(slash < 0 ? text : text.substring(0, slash));
            int max = address.getAddress().length * 8;
            int bits = slash < 0 ? max : Integer.parseInt(text.substring(slash + 1));
            if (bits < 0 || bits > max) {
                s.error(path, "prefix length must be 0.." + max);
                return Optional.empty();
            }
            return Optional.of(new Subnet(address, bits));
        } catch (NumberFormatException e) {
            s.error(path, "'" + text + "' is not a subnet (10.0.0.0/8, 2001:db8::/32 or an address)");
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            s.error(path, e.getMessage());
            return Optional.empty();
        }
    }
}
