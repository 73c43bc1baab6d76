package io.switchboard.app;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import picocli.CommandLine.Option;

/**
 * {@code --admin URL --token T}: how a client command ({@code show}, {@code reload}) reaches a
 * running node's admin API, and the one way it asks.
 */
final class AdminOption {

    @Option(names = "--admin", defaultValue = "http://127.0.0.1:8080", description = "admin API base URL (default: ${DEFAULT-VALUE})")
    URI admin;

    @Option(names = "--token", description = "bearer token, when the node has one")
    String token;

    @Option(names = "--cacert", paramLabel = "PEM", description = "trust this CA (PEM) for an https admin URL"
            + " (admin.tls), besides the JDK's own")
    Path caCertificate;

    /** A request for {@code path} of the admin API, with the token when there is one. */
    HttpRequest.Builder request(String path, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(admin.resolve(path)).timeout(timeout);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    /** Sends it; the IOException says the node could not be reached. */
    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpClient.Builder client = HttpClient.newBuilder();
        if (caCertificate != null) {
            client.sslContext(trusting(caCertificate));
        }
        return client.build().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * Sends it for {@code switchboard COMMAND}: the answer, or null (said on {@code err}) when the node cannot be
     * reached.
     */
    HttpResponse<String> ask(HttpRequest.Builder request, String command, PrintWriter err) throws InterruptedException {
        try {
            return send(request);
        } catch (IOException e) {
            err.println("switchboard " + command + ": cannot reach " + admin + ": " + e);
            return null;
        }
    }

    /** Whether the node answered 2xx; if not, its status and body are said on {@code err}. */
    static boolean succeeded(HttpResponse<String> response, String command, PrintWriter err) {
        if (response.statusCode() / 100 == 2) {
            return true;
        }
        err.println("switchboard " + command + ": " + response.statusCode() + " " + response.body());
        return false;
    }

    /** A TLS context that trusts the certificates of {@code pem} (a node's own CA, as admin.tls is set up). */
    static SSLContext trusting(Path pem) throws IOException {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                trusted.setCertificateEntry("ca-" + n++, c);
            }
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot trust " + pem + ": " + e.getMessage(), e);
        }
    }
}
