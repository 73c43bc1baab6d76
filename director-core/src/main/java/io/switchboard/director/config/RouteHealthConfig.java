package io.switchboard.director.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Route health injection (IOS {@code advertise}): the hook is run as {@code HOOK up|down VIP NAME}
 * when an advertised virtual server's address is to be announced and when it is to be withdrawn
 * ({@link Advertise}: while the server is in service, or only while one of its reals can serve), so
 * that a routing daemon announces or withdraws the host route of the virtual address; or, with
 * {@code bgp}, Switchboard drives the node's BGP speaker itself.
 *
 * @param advertising the virtual servers with {@code advertise:} set, each with when it is announced
 *                    ({@link Advertise}: IOS {@code advertise active}, or IOS's default)
 */
public record RouteHealthConfig(Optional<Path> hook, Duration timeout, Map<String, Advertise> advertising,
        Optional<BgpConfig> bgp) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final RouteHealthConfig NONE = new RouteHealthConfig(Optional.empty(), DEFAULT_TIMEOUT, Set.of());

    public RouteHealthConfig {
        advertising = Map.copyOf(advertising);
    }

    /** Every server in {@code advertised} announced while a real serves ({@link Advertise#ACTIVE}). */
    public RouteHealthConfig(Optional<Path> hook, Duration timeout, Set<String> advertised, Optional<BgpConfig> bgp) {
        this(hook, timeout, advertised.stream().collect(Collectors.toMap(n -> n, n -> Advertise.ACTIVE)), bgp);
    }

    public RouteHealthConfig(Optional<Path> hook, Duration timeout, Set<String> advertised) {
        this(hook, timeout, advertised, Optional.empty());
    }

    /** The names of the advertised virtual servers, sorted. */
    public Set<String> advertised() {
        return new TreeMap<>(advertising).keySet();
    }

    /** When {@code name} is announced; empty when it is not advertised. */
    public Optional<Advertise> advertise(String name) {
        return Optional.ofNullable(advertising.get(name));
    }
}
