package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code check} warns of clear-text secrets in a file others may read, naming each by path. */
class CheckSecretsWarningTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int check(Path file) {
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute("check", "-c", file.toString());
    }

    private Path config(String name, String mode, String tokenSource) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, """
                admin: { token: %s }
                farms:
                  one:
                    reals: [ { address: 127.0.0.2, port: 53, secret: clear-text } ]
                virtual-servers:
                  dns: { listen: 127.0.0.1:5353, service: udp, farm: one }
                """.formatted(tokenSource));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void aFileOthersCanReadIsWarnedOfWithEachClearTextSecret() throws Exception {
        Path file = config("open.yaml", "rw-r--r--", "t0k3n");

        assertThat(check(file)).as(err.toString()).isZero();

        assertThat(err.toString()).contains(file + ": warning: readable by others and holds 2 secrets in clear text")
                .contains("  admin.token\n").contains("  farms.one.reals[0].secret\n")
                .doesNotContain("t0k3n", "clear-text");
        assertThat(out.toString()).contains("OK");
    }

    @Test
    void noWarningForAFileOnlyItsOwnerAndGroupRead() throws Exception {
        assertThat(check(config("closed.yaml", "rw-r-----", "t0k3n"))).isZero();
        assertThat(err.toString()).doesNotContain("warning");
    }

    @Test
    void noWarningWhenTheSecretsAreKeptOutOfTheFile() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "t0k3n");
        Path file = dir.resolve("sourced.yaml");
        Files.writeString(file, """
                admin: { token: { file: %s } }
                farms:
                  one:
                    reals: [ { address: 127.0.0.2, port: 53 } ]
                virtual-servers:
                  dns: { listen: 127.0.0.1:5353, service: udp, farm: one }
                """.formatted(token));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(check(file)).isZero();
        assertThat(err.toString()).doesNotContain("warning");
    }
}
