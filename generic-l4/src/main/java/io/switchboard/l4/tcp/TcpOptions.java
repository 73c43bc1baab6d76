package io.switchboard.l4.tcp;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * Settings of a {@code tcp} virtual server.
 *
 * @param clients        the subnets allowed to connect; empty allows everyone (IOS {@code client})
 * @param connectTimeout how long a connection attempt to a real may take before it counts as failed
 * @param reassign       how many reals a connection is offered to before it is refused (IOS
 *                       {@code reassign}); each failed attempt counts against its real
 * @param synLimit       new connections accepted per {@code synInterval}; more are refused and counted
 *                       (IOS {@code synguard}); empty for no limit
 */
public record TcpOptions(List<Subnet> clients, Duration connectTimeout, int reassign, OptionalInt synLimit,
        Duration synInterval) implements ServiceOptions {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(3);
    public static final int DEFAULT_REASSIGN = 3;
    public static final Duration DEFAULT_SYN_INTERVAL = Duration.ofSeconds(1);
    public static final TcpOptions DEFAULT =
            new TcpOptions(List.of(), DEFAULT_CONNECT_TIMEOUT, DEFAULT_REASSIGN, OptionalInt.empty(), DEFAULT_SYN_INTERVAL);

    public TcpOptions {
        clients = List.copyOf(clients);
    }

    public boolean allows(InetAddress client) {
        return clients.isEmpty() || clients.stream().anyMatch(s -> s.contains(client));
    }
}
