package io.switchboard.director.radius.radsec;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLException;

/**
 * The JDK's TLS, through Netty, as RadSec uses it (RFC 6614 §2.3): mutual authentication both ways,
 * each side's certificate verified against the configured CA. Built once per virtual server from its
 * {@link RadsecOptions.TlsFiles}; also what the configuration loader tries, so that a certificate or
 * key that cannot be read is refused with the configuration.
 */
public final class RadsecTls {

    /** RFC 6614 §2.4 asks for TLS 1.1 or later; the JDK offers 1.2 and 1.3. */
    private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final SslContext server;
    private final SslContext client;

    private RadsecTls(SslContext server, SslContext client) {
        this.server = server;
        this.client = client;
    }

    /** Reads the PEM files; fails with what is wrong with them. */
    public static RadsecTls load(RadsecOptions.TlsFiles files) throws SSLException {
        SslContext server = SslContextBuilder.forServer(files.certificate().toFile(), files.key().toFile())
                .trustManager(files.ca().toFile())
                .clientAuth(ClientAuth.REQUIRE) // RFC 6614 §2.3: the client presents a certificate
                .sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
        SslContext client = SslContextBuilder.forClient()
                .keyManager(files.certificate().toFile(), files.key().toFile())
                .trustManager(files.ca().toFile())
                // The real is named by its address: its certificate must carry it (subjectAltName IP).
                .endpointIdentificationAlgorithm("HTTPS")
                .sslProvider(SslProvider.JDK).protocols(PROTOCOLS).build();
        return new RadsecTls(server, client);
    }

    /** Accepts RadSec clients. */
    public SslContext server() {
        return server;
    }

    /** Connects to RadSec reals. */
    public SslContext client() {
        return client;
    }

    /** The names a certificate carries: subjectAltName DNS, IP and URI entries, then the subject's CNs. */
    static List<String> names(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
            if (alternatives != null) {
                for (List<?> entry : alternatives) {
                    int type = (Integer) entry.get(0);
                    if (type == 2 || type == 6 || type == 7) { // dNSName, uniformResourceIdentifier, iPAddress
                        names.add(String.valueOf(entry.get(1)));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            // no usable subjectAltName: the subject below
        }
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    names.add(String.valueOf(rdn.getValue()));
                }
            }
        } catch (InvalidNameException e) {
            // a subject the JDK printed cannot be unparsable; nothing more to add if it were
        }
        return names;
    }
}
