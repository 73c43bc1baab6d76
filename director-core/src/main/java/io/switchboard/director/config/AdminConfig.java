package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.Optional;

/**
 * The admin listener: REST API, {@code /metrics} and {@code /health}. Bound to loopback unless
 * configured; when a token is set, every API call must carry {@code Authorization: Bearer TOKEN}
 * ({@code /health} and {@code /metrics} stay open for probes and scrapers).
 *
 * @param exposure whether the operator acknowledged a listener on a public (or every) address
 */
public record AdminConfig(boolean enabled, Endpoint listen, Optional<String> token, Exposure exposure) {

    public static final AdminConfig DEFAULT =
            new AdminConfig(true, new Endpoint(InetAddress.getLoopbackAddress(), 8080), Optional.empty());

    /** On private addresses only. */
    public AdminConfig(boolean enabled, Endpoint listen, Optional<String> token) {
        this(enabled, listen, token, Exposure.PRIVATE);
    }

    /** The token never shows (logs, error messages): only whether there is one. */
    @Override
    public String toString() {
        return "AdminConfig[enabled=" + enabled + ", listen=" + listen + ", token=" + (token.isPresent() ? "***" : "none")
                + ", exposure=" + exposure.configName() + "]";
    }
}
