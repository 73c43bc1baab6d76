package io.switchboard.director.radius.radsec;

import io.switchboard.director.config.Endpoint;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code service: radius} virtual server's {@code radsec:} block: RADIUS over TLS (RFC 6614) toward
 * its clients (a listener beside the UDP one) and toward its reals whose {@code transport} is
 * {@code radsec}.
 *
 * @param accepts  whether the virtual server accepts RadSec clients ({@code listen: off}: only its
 *                 reals are reached by RadSec)
 * @param listen   where it accepts them; empty: the virtual address on {@link #DEFAULT_PORT}
 * @param identify how a TLS peer is known as one of the configured clients
 * @param tls      the director's certificate and key (shown to clients and to RadSec reals) and the
 *                 CA that their certificates must chain to
 */
public record RadsecOptions(boolean accepts, Optional<Endpoint> listen, Identify identify, TlsFiles tls) {

    /** RFC 6614 §2.1: RADIUS/TLS on TCP port 2083. */
    public static final int DEFAULT_PORT = 2083;

    public RadsecOptions {
        listen = listen == null ? Optional.empty() : listen;
        Objects.requireNonNull(identify, "identify");
        Objects.requireNonNull(tls, "tls");
    }

    /** The radsec settings of a {@code service: radius} virtual server, or null when it has none. */
    public static RadsecOptions of(io.switchboard.director.config.VirtualServerConfig config) {
        return config.options() instanceof io.switchboard.director.radius.RadiusOptions radius
                ? radius.radsec().orElse(null) : null;
    }

    /** Where the listener binds for a virtual server on {@code virtualAddress}. */
    public Endpoint listenOn(Endpoint virtualAddress) {
        return listen.orElse(new Endpoint(virtualAddress.address(), DEFAULT_PORT));
    }

    /**
     * {@code identify:} which configured client a TLS peer is. {@code address}: the client whose
     * {@code address}/{@code subnet} holds the peer's source address, as for UDP. {@code certificate}:
     * the client whose {@code certificate-name} the peer's certificate carries (a subjectAltName DNS,
     * IP or URI entry, or the subject's CN) and whose address/subnet holds its source address.
     */
    public enum Identify {
        ADDRESS, CERTIFICATE;

        public String text() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** PEM files: the certificate chain, its PKCS#8 private key, the trusted CA certificates. */
    public record TlsFiles(Path certificate, Path key, Path ca) {

        public TlsFiles {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(ca, "ca");
        }
    }
}
