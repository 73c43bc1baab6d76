package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.Optional;

/**
 * The admin listener: REST API, {@code /metrics} and {@code /health}. Bound to loopback unless
 * configured; when a token is set, every API call must carry {@code Authorization: Bearer TOKEN}
 * ({@code /health} and {@code /metrics} stay open for probes and scrapers).
 */
public record AdminConfig(boolean enabled, Endpoint listen, Optional<String> token) {

    public static final AdminConfig DEFAULT =
            new AdminConfig(true, new Endpoint(InetAddress.getLoopbackAddress(), 8080), Optional.empty());
}
