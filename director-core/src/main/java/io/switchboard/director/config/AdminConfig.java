package io.switchboard.director.config;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The admin listener: REST API, {@code /metrics} and {@code /health}. Bound to loopback unless
 * configured; when a token is set, every API call must carry {@code Authorization: Bearer TOKEN}
 * ({@code /health} and {@code /metrics} stay open for probes and scrapers).
 *
 * @param exposure whether the operator acknowledged a listener on a public (or every) address
 * @param tls      HTTPS instead of HTTP: the server's certificate chain and key, PEM files
 */
public record AdminConfig(boolean enabled, Endpoint listen, Optional<String> token, Exposure exposure,
        Optional<Tls> tls) {

    /** The PEM certificate (chain) and private key the admin API serves HTTPS with. */
    public record Tls(Path certificate, Path key) {
    }

    public AdminConfig(boolean enabled, Endpoint listen, Optional<String> token, Exposure exposure) {
        this(enabled, listen, token, exposure, Optional.empty());
    }

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
                + ", exposure=" + exposure.configName() + ", tls=" + tls.map(Tls::certificate).map(Path::toString).orElse("none")
                + "]";
    }
}
