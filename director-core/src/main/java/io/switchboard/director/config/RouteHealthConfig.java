package io.switchboard.director.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Route health injection (IOS {@code advertise}): the hook is run as {@code HOOK up|down VIP NAME}
 * when the first real of an advertised virtual server becomes available and when its last one goes
 * away, so that a routing daemon announces or withdraws the host route of the virtual address; or,
 * with {@code bgp}, Switchboard drives the node's BGP speaker itself.
 *
 * @param advertised the virtual servers with {@code advertise: true}
 */
public record RouteHealthConfig(Optional<Path> hook, Duration timeout, Set<String> advertised,
        Optional<BgpConfig> bgp) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final RouteHealthConfig NONE = new RouteHealthConfig(Optional.empty(), DEFAULT_TIMEOUT, Set.of());

    public RouteHealthConfig {
        advertised = Set.copyOf(advertised);
    }

    public RouteHealthConfig(Optional<Path> hook, Duration timeout, Set<String> advertised) {
        this(hook, timeout, advertised, Optional.empty());
    }
}
