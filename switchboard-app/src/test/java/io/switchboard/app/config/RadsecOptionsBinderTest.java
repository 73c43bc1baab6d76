package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.radius.RadiusOptions;
import io.switchboard.director.radius.radsec.RadsecOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code radsec:} of {@code service: radius}, a client's {@code certificate-name} and a real's
 * {@code transport}, as docs/radsec.md writes them; files that are missing or unreadable as PEM are
 * refused by path. The certificate is made by {@code openssl} (Debian {@code openssl}, in .ci/run).
 */
class RadsecOptionsBinderTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    @TempDir
    static Path dir;
    static Path cert;
    static Path key;

    @BeforeAll
    static void certificate() throws IOException, InterruptedException {
        cert = dir.resolve("director.pem");
        key = dir.resolve("director.key");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key.toString(), "-out", cert.toString(),
                "-days", "2", "-subj", "/CN=director.test").redirectErrorStream(true)
                .redirectOutput(dir.resolve("openssl.out").toFile()).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("openssl.out"))).isZero();
    }

    private static String config(String radsec, String client, String real) {
        return """
                farms:
                  aaa:
                    reals:
                      - { address: 127.0.0.2, port: 2083%s }
                virtual-servers:
                  in:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: s%s } ]
                %s
                """.formatted(real, client, radsec.indent(4).stripTrailing());
    }

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void theDocumentedBlockBinds() throws Exception {
        SwitchboardConfig config = LOADER.parse(config("""
                radsec:
                  listen: 127.0.0.10:2083
                  identify: certificate
                  tls: { certificate: %s, key: %s, ca: %s }
                """.formatted(cert, key, cert), ", certificate-name: nas1.example.net", ", transport: radsec"));
        RadiusOptions options = config.virtualServers().get("in").options(RadiusOptions.class);
        assertThat(options.radsec()).contains(new RadsecOptions(true,
                Optional.of(new Endpoint(InetAddress.getByName("127.0.0.10"), 2083)), RadsecOptions.Identify.CERTIFICATE,
                new RadsecOptions.TlsFiles(cert, key, cert)));
        assertThat(options.clients().get(0).certificateName()).contains("nas1.example.net");
        assertThat(config.farms().get("aaa").reals().get(0).value(RadiusModule.TRANSPORT)).contains("radsec");
    }

    @Test
    void listenOffKeepsOnlyTheRealSide() throws Exception {
        SwitchboardConfig config = LOADER.parse(config("""
                radsec: { listen: off, tls: { certificate: %s, key: %s, ca: %s } }
                """.formatted(cert, key, cert), "", ""));
        RadsecOptions radsec = config.virtualServers().get("in").options(RadiusOptions.class).radsec().orElseThrow();
        assertThat(radsec.accepts()).isFalse();
        assertThat(radsec.identify()).isEqualTo(RadsecOptions.Identify.ADDRESS);
    }

    @Test
    void everyProblemIsReportedByItsPath() {
        assertThat(errors(config("""
                radsec:
                  listen: on
                  identify: subject
                  tls: { certificate: %s, key: /nonexistent/director.key, port: 1 }
                """.formatted(cert), "", ", transport: tls"))).containsExactlyInAnyOrder(
                "farms.aaa.reals[0].transport: must be udp or radsec, not 'tls'",
                "virtual-servers.in.radsec.listen: must be ADDRESS:PORT or off",
                "virtual-servers.in.radsec.identify: must be address or certificate, not 'subject'",
                "virtual-servers.in.radsec.tls.port: unknown key (known: certificate, key, ca)",
                "virtual-servers.in.radsec.tls.key: cannot read /nonexistent/director.key",
                "virtual-servers.in.radsec.tls.ca: required (a PEM file)");
        assertThat(errors(config("radsec: { identify: address }", "", ""))).containsExactly(
                "virtual-servers.in.radsec.tls: required ({certificate, key, ca}: PEM files)");
        assertThat(errors(config("""
                radsec: { identify: certificate, tls: { certificate: %s, key: %s, ca: %s } }
                """.formatted(cert, key, cert), "", ""))).containsExactly(
                "virtual-servers.in.clients: radsec identifies peers by certificate: give clients a certificate-name");
    }

    @Test
    void filesThatAreNoCertificateOrKeyAreRefused() {
        // The key where the certificate should be, and the reverse: both readable, neither usable.
        assertThat(errors(config("""
                radsec: { tls: { certificate: %s, key: %s, ca: %s } }
                """.formatted(key, cert, cert), "", ""))).singleElement().asString()
                .startsWith("virtual-servers.in.radsec.tls: the certificate, key and CA do not make a TLS context: ");
    }
}
