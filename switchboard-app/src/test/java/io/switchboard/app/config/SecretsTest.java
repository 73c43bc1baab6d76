package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.radius.RadiusCheck;
import io.switchboard.director.radius.RadiusModule;
import io.switchboard.director.radius.RadiusOptions;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Secrets given as {@code { file: PATH }} or {@code { env: NAME }} reach the RADIUS plug-in's records
 * byte for byte, the admin token too; what cannot be read is refused by path, and never with the
 * secret in the message. The environment variables are set for the test JVM by the module's pom.
 */
class SecretsTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    /** As the pom sets SWITCHBOARD_TEST_REAL_SECRET. */
    private static final String REAL_SECRET = "real: secret with spaces, \"quotes\" & a tab\tend";
    private static final String CLIENT_SECRET = " leading space, # not a comment, trailing  ";

    @TempDir
    Path dir;

    private String document(Path clientSecret, String realSecretSource) {
        return """
                admin: { token: { file: %s } }
                probes:
                  status: { type: radius, secret: { env: SWITCHBOARD_TEST_REAL_SECRET } }
                farms:
                  aaa:
                    probes: [status]
                    reals:
                      - { address: 127.0.0.2, port: 1812, secret: %s }
                virtual-servers:
                  auth:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: { file: %s } } ]
                """.formatted(clientSecret, realSecretSource, clientSecret);
    }

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void secretsFromAFileAndTheEnvironmentReachThePluginUnchanged() throws Exception {
        Path file = dir.resolve("nas.secret");
        // One line ending at the end is what echo writes; it is no part of the secret.
        Files.writeString(file, CLIENT_SECRET + "\n", StandardCharsets.UTF_8);

        SwitchboardConfig config = LOADER.parse(document(file, "{ env: SWITCHBOARD_TEST_REAL_SECRET }"));

        RadiusOptions options = config.virtualServers().get("auth").options(RadiusOptions.class);
        assertThat(options.clients().get(0).secret()).isEqualTo(CLIENT_SECRET);
        assertThat(options.clients().get(0).secretBytes()).isEqualTo(CLIENT_SECRET.getBytes(StandardCharsets.UTF_8));
        assertThat(config.farms().get("aaa").reals().get(0).value(RadiusModule.SECRET)).contains(REAL_SECRET);
        assertThat(((RadiusCheck) config.probes().get("status").check()).secret()).isEqualTo(REAL_SECRET);
        assertThat(config.admin().token()).contains(CLIENT_SECRET);
        assertThat(config.admin().toString()).doesNotContain(CLIENT_SECRET.strip());
    }

    @Test
    void onlyOneLineEndingIsTakenOff() throws Exception {
        Path file = dir.resolve("crlf.secret");
        Files.writeString(file, "s3cret\r\n\r\n", StandardCharsets.UTF_8);

        RadiusOptions options = LOADER.parse(document(file, "x")).virtualServers().get("auth")
                .options(RadiusOptions.class);

        assertThat(options.clients().get(0).secret()).isEqualTo("s3cret\r\n");
    }

    @Test
    void whatCannotBeReadIsRefusedByPathWithoutTheSecret() throws Exception {
        Path empty = dir.resolve("empty.secret");
        Files.writeString(empty, "\n");
        Path missing = dir.resolve("missing.secret");

        assertThat(errors(document(missing, "{ env: SWITCHBOARD_TEST_UNSET_VARIABLE }"))).containsExactlyInAnyOrder(
                "admin.token.file: cannot read " + missing + ": no such file",
                "virtual-servers.auth.clients[0].secret.file: cannot read " + missing + ": no such file",
                "farms.aaa.reals[0].secret.env: environment variable SWITCHBOARD_TEST_UNSET_VARIABLE is not set");
        assertThat(errors(document(empty, "{ env: SWITCHBOARD_TEST_EMPTY }"))).containsExactlyInAnyOrder(
                "admin.token.file: " + empty + " is empty: it must hold the secret",
                "virtual-servers.auth.clients[0].secret.file: " + empty + " is empty: it must hold the secret",
                "farms.aaa.reals[0].secret.env: environment variable SWITCHBOARD_TEST_EMPTY is empty: it must hold"
                        + " the secret");
        assertThat(errors(document(empty, "{ file: a, env: B }"))).contains(
                "farms.aaa.reals[0].secret: give either the secret itself, or { file: PATH }, or { env: NAME }");
        assertThat(errors(document(empty, "{ path: a }"))).contains(
                "farms.aaa.reals[0].secret.path: unknown key (known: file, env)");
    }

    @Test
    void clearTextSecretsAreFoundByPathAndSourcesAreNot() throws Exception {
        Path file = dir.resolve("nas.secret");
        Files.writeString(file, "s3cret");
        String yaml = document(file, "inline-secret");
        LOADER.parse(yaml);

        assertThat(ConfigLoader.clearTextSecrets(yaml)).containsExactly("farms.aaa.reals[0].secret");
    }
}
