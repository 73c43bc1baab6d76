package io.switchboard.l4.tcp;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
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

    public static final Schema SYN_GUARD = Schema.of("a guard against SYN floods",
            Key.integer("limit", 1, Integer.MAX_VALUE).required().note("New connections allowed per `interval`; more"
                    + " are refused and counted as `dropped{reason=\"syn-guard\"}`."),
            Key.duration("interval").defaultValue(TcpOptions.DEFAULT_SYN_INTERVAL).note("The period `limit` counts over."));

    public static final Schema TCP = Schema.of("the TCP settings of a `tcp` virtual server",
            Key.duration("connect-timeout").defaultValue(TcpOptions.DEFAULT_CONNECT_TIMEOUT)
                    .note("How long a connection to a real may take before the next real is tried."),
            Key.integer("reassign", 1, 16).defaultValue(TcpOptions.DEFAULT_REASSIGN).note("Reals tried per connection."),
            Key.mapping("syn-guard", SYN_GUARD).byDefault("none (no guard)").note("At most `limit` new connections"
                    + " per `interval`."),
            Key.duration("idle").defaultValue(TcpOptions.DEFAULT_IDLE).note("IOS `idle`: a connection with no data"
                    + " either way this long is closed both ways (`connections_closed{reason=\"idle\"}`)."),
            Key.duration("delay").defaultValue(TcpOptions.DEFAULT_DELAY).note("IOS `delay`: once one side has closed"
                    + " its half (FIN), the other gets this long before both are closed."));

    private static final List<Key> DECLARATION = List.of(
            Key.list("clients", "subnets or addresses").byDefault("everyone").note("`tcp`: the access list; other"
                    + " connections are refused and counted as `dropped{reason=\"client-not-allowed\"}`."),
            Key.mapping("tcp", TCP).byDefault("the defaults below").note("`tcp`: connection timers and limits."));

    @Override
    public List<Key> declaration() {
        return DECLARATION;
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
            Optional<Section> tcp = server.section("tcp");
            if (tcp.isEmpty()) {
                return Optional.empty();
            }
            connectTimeout = tcp.get().positiveDuration("connect-timeout").orElse(connectTimeout);
            reassign = tcp.get().integer("reassign").orElse(reassign);
            idle = tcp.get().positiveDuration("idle").orElse(idle);
            delay = tcp.get().positiveDuration("delay").orElse(delay);
            if (tcp.get().has("syn-guard")) {
                Optional<Section> guard = tcp.get().section("syn-guard");
                if (guard.isEmpty()) {
                    return Optional.empty();
                }
                if (guard.get().require("limit", "required: new connections allowed per interval")) {
                    synLimit = guard.get().integer("limit").map(OptionalInt::of).orElse(OptionalInt.empty());
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
