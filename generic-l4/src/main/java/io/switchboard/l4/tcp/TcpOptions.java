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
 * @param idle           a connection with no data either way for this long is closed both ways (IOS
 *                       {@code idle})
 * @param delay          once one side has closed its half, how long the other side is given to finish
 *                       before both are closed (IOS {@code delay}: the context kept after a FIN)
 */
public record TcpOptions(List<Subnet> clients, Duration connectTimeout, int reassign, OptionalInt synLimit,
        Duration synInterval, Duration idle, Duration delay) implements ServiceOptions {

    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(3);
    public static final int DEFAULT_REASSIGN = 3;
    public static final Duration DEFAULT_SYN_INTERVAL = Duration.ofSeconds(1);
    /** IOS SLB's default virtual-server idle time for TCP. */
    public static final Duration DEFAULT_IDLE = Duration.ofHours(1);
    /** IOS SLB's default {@code delay}. */
    public static final Duration DEFAULT_DELAY = Duration.ofSeconds(10);
    public static final TcpOptions DEFAULT = new TcpOptions(List.of(), DEFAULT_CONNECT_TIMEOUT, DEFAULT_REASSIGN,
            OptionalInt.empty(), DEFAULT_SYN_INTERVAL);

    public TcpOptions {
        clients = List.copyOf(clients);
    }

    /** With the default idle and delay timers. */
    public TcpOptions(List<Subnet> clients, Duration connectTimeout, int reassign, OptionalInt synLimit,
            Duration synInterval) {
        this(clients, connectTimeout, reassign, synLimit, synInterval, DEFAULT_IDLE, DEFAULT_DELAY);
    }

    public boolean allows(InetAddress client) {
        return clients.isEmpty() || clients.stream().anyMatch(s -> s.contains(client));
    }
}
