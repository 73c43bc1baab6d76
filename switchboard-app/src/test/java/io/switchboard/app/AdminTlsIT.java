package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code admin.tls}: the admin API over HTTPS with a certificate and key from PEM files made by {@code openssl}
 * (a CA and a server certificate for 127.0.0.1), reached by a client that trusts the CA and by {@code switchboard
 * show --cacert}; refused in clear; bad files refused by path before anything binds.
 */
class AdminTlsIT {

    @TempDir
    Path dir;

    private Node node;

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
    }

    private void openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.out").toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, Files.readString(dir.resolve("openssl.out"))).isZero();
    }

    /** A CA, and a certificate for IP 127.0.0.1 signed by it. */
    private void certificates() throws Exception {
        assumeTrue(new ProcessBuilder("openssl", "version").start().waitFor() == 0, "openssl is not installed");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                "-subj", "/CN=switchboard test CA", "-keyout", "ca.key", "-out", "ca.pem");
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-subj", "/CN=127.0.0.1", "-keyout", "admin.key", "-out", "admin.csr");
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
        openssl("x509", "-req", "-in", "admin.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-days", "2", "-extfile", "san.ext", "-out", "admin.pem");
    }

    private String yaml(String certificate, String key) {
        return """
                admin: { listen: 127.0.0.1:0, tls: { certificate: %s, key: %s } }
                farms:
                  one:
                    reals:
                      - { address: 127.0.0.1, port: 9 }
                virtual-servers:
                  echo: { listen: 127.0.0.1:0, service: udp, farm: one }
                """.formatted(certificate, key);
    }

    @Test
    void theApiIsServedOverHttpsOnly() throws Exception {
        certificates();
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml(dir.resolve("admin.pem").toString(),
                dir.resolve("admin.key").toString())), services);
        node.startAndWait();
        int port = node.adminAddress().getPort();

        HttpClient trusting = HttpClient.newBuilder().sslContext(AdminOption.trusting(dir.resolve("ca.pem"))).build();
        HttpResponse<String> health = trusting.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port
                + "/health")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\"");

        assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/health")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString())).as("plain HTTP to a TLS listener").isInstanceOf(IOException.class);
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + port + "/health")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString())).as("a client that does not trust the CA")
                .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);

        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        int exit = cli.execute("show", "reals", "--admin", "https://127.0.0.1:" + port,
                "--cacert", dir.resolve("ca.pem").toString());
        assertThat(exit).isZero();
        assertThat(out.toString()).contains("127.0.0.1:9", "one");
    }

    @Test
    void filesThatMakeNoTlsServerAreRefusedByPath() throws Exception {
        Files.writeString(dir.resolve("not-a-certificate.pem"), "hello\n");
        Files.writeString(dir.resolve("not-a-key.pem"), "hello\n");
        ConfigLoader loader = new ConfigLoader(Services.discover().available());

        assertThatThrownBy(() -> loader.parse(yaml(dir.resolve("missing.pem").toString(),
                dir.resolve("not-a-key.pem").toString())))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.getMessage())
                        .contains("admin.tls.certificate: cannot read " + dir.resolve("missing.pem")));
        assertThatThrownBy(() -> loader.parse(yaml(dir.resolve("not-a-certificate.pem").toString(),
                dir.resolve("not-a-key.pem").toString())))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.getMessage())
                        .contains("admin.tls: the certificate and key do not make a TLS server"));
        assertThatThrownBy(() -> loader.parse("""
                admin: { listen: 127.0.0.1:0, tls: { certificate: x } }
                farms: { one: { reals: [ { address: 127.0.0.1, port: 9 } ] } }
                virtual-servers: { echo: { listen: 127.0.0.1:0, service: udp, farm: one } }
                """)).isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.getMessage())
                        .contains("admin.tls.key: required (a PEM file)"));
    }
}
