package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code import-ios}, {@code export-ios}, and {@code check -c} on IOS files, as a user calls them. */
class IosCommandsTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path example(String name) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/ios/" + name)) {
            return Files.write(dir.resolve(name), in.readAllBytes());
        }
    }

    @Test
    void importWritesYamlThatChecksAndAJsonReport() throws Exception {
        Path ios = example("basic.ios");
        Path yaml = dir.resolve("basic.yaml");
        Path report = dir.resolve("report.json");

        int exit = execute("import-ios", ios.toString(), "-o", yaml.toString(), "--report", report.toString());

        assertThat(exit).as(err.toString()).isZero();
        String written = Files.readString(yaml);
        assertThat(written).contains("weight: 8").contains("# line 12: faildetect numconns 4 numclients 2")
                .contains("listen: 10.0.0.1:80");
        JsonNode json = new ObjectMapper().readTree(Files.readString(report));
        assertThat(json.get("lines")).isNotEmpty();
        assertThat(json.get("lines").get(0).get("outcome").asText()).isEqualTo("ignored");
        assertThat(out.toString()).contains("translated").contains("0 unsupported");

        assertThat(execute("check", "-c", yaml.toString())).as(err.toString()).isZero();
    }

    @Test
    void unsupportedLinesExitThree() throws Exception {
        int exit = execute("import-ios", example("firewall.ios").toString());

        assertThat(exit).isEqualTo(3);
        assertThat(out.toString()).contains("farms:");
        assertThat(err.toString()).contains("unsupported").contains("access inbound Vlan10");
    }

    @Test
    void anUnknownIpSlbLineExitsTwoWithItsLineAndTheNearestCommand() throws Exception {
        Path ios = Files.writeString(dir.resolve("typo.ios"), """
                ip slb serverfarm WEB
                 real 10.1.1.1
                  wieght 3
                  inservice
                """);

        int exit = execute("import-ios", ios.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("line 3, column 3: unknown command 'wieght' in real server mode;"
                + " nearest known command: weight").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void runRefusesAnIosFileWithAnUnknownLineBeforeStartingAnything() throws Exception {
        Path ios = Files.writeString(dir.resolve("broken.ios"), """
                ip slb serverfarm WEB
                 real 127.0.0.1 8080
                  inservice
                ip slb vserver HTTP
                 virtual 127.0.0.1 tcp 8081
                 serverfarm WEB
                 advertize active
                 inservice
                """);

        int exit = execute("run", "-c", ios.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("line 7, column 2: unknown command 'advertize' in virtual server mode;"
                + " nearest known command: advertise").doesNotContain("\tat ");
    }

    @Test
    void checkAcceptsAnIosFileAndPrintsTheReport() throws Exception {
        int exit = execute("check", "-c", example("radius.ios").toString(), "--radius-secret", "s3cret");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(err.toString()).contains("sticky radius framed-ip group 1");
        assertThat(out.toString()).contains("OK (2 farms, 2 virtual servers)");
    }

    @Test
    void aRadiusServerWithoutASecretIsRefusedWithTheLine() throws Exception {
        int exit = execute("import-ios", example("radius.ios").toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("line 14, column").contains("--radius-secret");
    }

    @Test
    void exportWritesIosThatImportsBack() throws Exception {
        Path yaml = dir.resolve("gtp.yaml");
        assertThat(execute("import-ios", example("gtp-inspect.ios").toString(), "-o", yaml.toString())).isZero();
        Path ios = dir.resolve("again.ios");

        int exit = execute("export-ios", "-c", yaml.toString(), "-o", ios.toString());

        assertThat(exit).as(err.toString()).isZero();
        String text = Files.readString(ios, StandardCharsets.UTF_8);
        assertThat(text).contains("virtual 10.10.10.10 udp 2123 service gtp-inspect")
                .contains("serverfarm GPRS backup GPRS_BACKUP").contains("gtp notification cac 3");
        assertThat(execute("import-ios", ios.toString(), "-o", dir.resolve("again.yaml").toString())).isZero();
    }

    @Test
    void whatIfRunsACaptureThroughAnIosConfiguration() throws Exception {
        // The RADIUS part of WhatIfCommandTest's lab configuration, as IOS SLB would have said it.
        Path ios = Files.writeString(dir.resolve("aaa.ios"), """
                ip slb serverfarm AAA
                 real 10.0.0.2
                  weight 1
                  inservice
                 real 10.0.0.3
                  weight 1
                  inservice
                ip slb vserver RADIUS_AUTH
                 virtual 127.0.0.1 udp 1812 service radius
                 serverfarm AAA
                 sticky radius calling-station-id
                 sticky radius username
                 inservice
                """);

        int exit = execute("whatif", "-c", ios.toString(), "--radius-secret", "testing123",
                "src/test/resources/pcaps/radius/radius_localhost.pcap",
                "src/test/resources/pcaps/radius/RADIUS-RFC4675.pcap");

        assertThat(exit).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        JsonNode summary = new ObjectMapper().readTree(lines.get(lines.size() - 1)).get("summary");
        // As with the YAML lab: weights 1/1 over new users, each user kept on its real.
        assertThat(summary.get("requests").asInt()).isEqualTo(14);
        assertThat(summary.at("/per_real/AAA~110.0.0.2:1812").asInt()).isEqualTo(8);
        assertThat(summary.at("/per_real/AAA~110.0.0.3:1812").asInt()).isEqualTo(2);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
        assertThat(err.toString()).contains("sticky radius username");
    }

    @Test
    void withARouteHealthHookTheImportKeepsIosRouteHealthAndChecks() throws Exception {
        // IOS installs the virtual address's host route when the virtual server is put in service
        // (Cisco IOS SLB Command Reference, "advertise"): every server of gtp.ios is announced so.
        Path ios = example("gtp.ios");
        Path yaml = dir.resolve("gtp.yaml");

        int exit = execute("import-ios", ios.toString(), "-o", yaml.toString(), "--route-health-hook",
                "/usr/local/sbin/switchboard-route");

        assertThat(exit).as(err.toString()).isZero();
        String written = Files.readString(yaml);
        assertThat(written).contains("advertise: inservice").contains("hook: \"/usr/local/sbin/switchboard-route\"")
                .contains("response-timeout: 4s"); // idle gtp request 4
        assertThat(execute("check", "-c", yaml.toString())).as(err.toString()).isZero();
    }
}
