package io.switchboard.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The .deb this module builds, installed into this machine with dpkg as an operator would (CI is
 * root on a fresh Debian machine): its files, user and conffiles; {@code systemd-analyze verify} on
 * the installed unit; the installed command checking the installed configuration; a director run
 * as the unit runs it (user switchboard, only CAP_NET_BIND_SERVICE, no new privileges, the unit's
 * system call filter) bound below port 1024, answering /health, reloading on SIGHUP and exiting on
 * SIGTERM with the status the unit counts as success; an upgrade keeping an edited configuration;
 * lintian; and removal and purge. Skipped where not root or without dpkg, and where a switchboard
 * package is installed already (it is not this test's to replace).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebianPackageIT {

    private static final Path DEB_DIR = Path.of(System.getProperty("switchboard.deb.dir", "target"));
    private static final Path UNIT = Path.of("/lib/systemd/system/switchboard.service");
    private static final Path CONFIG = Path.of("/etc/switchboard/switchboard.yaml");
    private static final Path STATE = Path.of("/var/lib/switchboard");
    /** A loopback address of its own and a port below 1024 that nothing else here uses. */
    private static final String PRIVILEGED_VIP = "127.0.83.1:983";
    /** Applies the installed unit's SystemCallFilter= to a command, as systemd would. */
    private static final Path SYSCALL_FILTER_EXEC = Tools.MODULE.resolve("src/test/python/syscall_filter_exec.py");

    private static Path deb;
    /** lintian on the package, started first: it reads only the .deb, and it takes the longest. */
    private static Process lintian;
    private static Path lintianOutput;
    private static boolean installed;

    @BeforeAll
    static void install() throws Exception {
        assumeTrue(Tools.find("dpkg").isPresent(), "dpkg is not installed: not a Debian machine");
        assumeTrue("0".equals(Tools.run(DEB_DIR, "id", "-u").output().strip()),
                "not root: dpkg -i needs root (CI runs as root)");
        try (Stream<Path> files = Files.list(DEB_DIR)) {
            deb = files.filter(f -> f.getFileName().toString().matches("switchboard_.+_all\\.deb")).findFirst()
                    .orElseThrow(() -> new AssertionError("no switchboard_*_all.deb in " + DEB_DIR
                            + " (mvn package builds it)"));
        }
        Tools.Result status = Tools.run(DEB_DIR, "dpkg-query", "-W", "-f=${db:Status-Status}", "switchboard");
        assumeTrue(status.exit() != 0 || status.output().strip().equals("not-installed"),
                "a switchboard package is installed on this machine already; not replacing it"
                        + " (dpkg --purge switchboard lets this test run)");
        Optional<Path> lintianTool = Tools.find("lintian");
        if (lintianTool.isPresent()) {
            lintianOutput = Files.createTempFile("switchboard-lintian", ".txt");
            lintian = new ProcessBuilder(lintianTool.get().toString(), "--fail-on", "error,warning", deb.toString())
                    .redirectErrorStream(true).redirectOutput(lintianOutput.toFile()).start();
        }
        Tools.Result install = Tools.run(DEB_DIR, 120, Map.of(), List.of("dpkg", "-i", deb.toString()));
        installed = true;
        assertThat(install.exit()).as(install.output()).isZero();
    }

    @AfterAll
    static void purgeIfStillInstalled() throws Exception {
        if (lintian != null && lintian.isAlive()) {
            lintian.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (lintianOutput != null) {
            Files.deleteIfExists(lintianOutput);
        }
        if (installed) {
            Tools.run(DEB_DIR, 120, Map.of(), List.of("dpkg", "--purge", "switchboard"));
        }
    }

    @Test
    @Order(1)
    void installsTheCommandTheUnitTheConffilesAndTheServiceUser() throws Exception {
        assertThat(Path.of("/usr/share/switchboard/switchboard.jar")).isRegularFile();
        assertThat(Files.getPosixFilePermissions(Path.of("/usr/bin/switchboard")))
                .isEqualTo(PosixFilePermissions.fromString("rwxr-xr-x"));
        assertThat(UNIT).isRegularFile();
        assertThat(Path.of("/usr/share/switchboard/prometheus/switchboard-rules.yml"))
                .hasSameTextualContentAs(PrometheusRulesTest.RULES);
        assertThat(Path.of("/usr/share/switchboard/grafana/switchboard.json")).isRegularFile();
        assertThat(Path.of("/usr/share/doc/switchboard/copyright")).isRegularFile();
        assertThat(Path.of("/usr/share/man/man1/switchboard.1.gz")).isRegularFile();

        Tools.Result conffiles = Tools.run(DEB_DIR, "dpkg-query", "-W", "-f=${Conffiles}", "switchboard");
        assertThat(conffiles.output()).contains(" /etc/switchboard/switchboard.yaml ", " /etc/default/switchboard ");

        // A system account without a login, whose group may read the configuration (it may hold secrets).
        String account = Tools.run(DEB_DIR, "getent", "passwd", "switchboard").output().strip();
        assertThat(account.split(":")).satisfies(f -> {
            assertThat(Integer.parseInt(f[2])).as("a system uid").isLessThan(1000);
            assertThat(f[5]).isEqualTo(STATE.toString());
            assertThat(f[6]).isEqualTo("/usr/sbin/nologin");
        });
        PosixFileAttributes config = Files.readAttributes(CONFIG, PosixFileAttributes.class);
        assertThat(config.group().getName()).isEqualTo("switchboard");
        assertThat(config.permissions()).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
        assertThat(Files.getOwner(STATE).getName()).isEqualTo("switchboard");
        // Enabled, as dh_installsystemd enables a service on its first installation.
        assertThat(Path.of("/etc/systemd/system/multi-user.target.wants/switchboard.service")).isSymbolicLink();

        // The changelog's latest entry is this package's version.
        String version = Tools.run(DEB_DIR, "dpkg-query", "-W", "-f=${Version}", "switchboard").output().strip();
        try (GZIPInputStream changelog = new GZIPInputStream(
                Files.newInputStream(Path.of("/usr/share/doc/switchboard/changelog.gz")))) {
            assertThat(new String(changelog.readAllBytes(), StandardCharsets.UTF_8))
                    .startsWith("switchboard (" + version + ") ");
        }
    }

    @Test
    @Order(2)
    void systemdVerifiesTheInstalledUnit() throws Exception {
        Path analyze = Tools.find("systemd-analyze").orElse(null);
        assumeTrue(analyze != null, "systemd-analyze is not installed (Debian package systemd)");
        // --man: that the unit's Documentation= page is installed, where man is there to say so.
        Tools.Result verify = Tools.run(DEB_DIR, analyze.toString(), "verify",
                "--man=" + (Tools.find("man").isPresent() ? "yes" : "no"), UNIT.toString());
        assertThat(verify.exit()).as(verify.output()).isZero();
        assertThat(verify.output()).as("what systemd says of the unit").doesNotContain("switchboard.service");
        // systemd's own measure of the sandbox, 0 (fully sandboxed) to 10: at most 2, "OK".
        Tools.Result security = Tools.run(DEB_DIR, analyze.toString(), "security", "--offline=true", "--threshold=20",
                UNIT.toString());
        assertThat(security.exit()).as(security.output()).isZero();
    }

    @Test
    @Order(3)
    void theInstalledCommandChecksTheInstalledConfigurationAsTheServiceUser() throws Exception {
        Tools.Result check = Tools.run(DEB_DIR, 60, Map.of(),
                ServiceSandbox.of(UNIT).setpriv(List.of("/usr/bin/switchboard", "check", "-c", CONFIG.toString())));
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains(CONFIG + ": OK (1 farm, 1 virtual server)");
    }

    @Test
    @Order(4)
    void runsAsTheUnitRunsItBelowPort1024AndReloadsAndStops() throws Exception {
        Path dir = Files.createTempDirectory("switchboard-deb-it");
        Path log = dir.resolve("switchboard.log");
        Process node = null;
        try {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Path config = Files.writeString(dir.resolve("switchboard.yaml"), """
                    admin: { listen: 127.0.83.1:0 }
                    farms:
                      one:
                        reals: [ { address: 127.0.83.2, port: 10515 } ]
                    virtual-servers:
                      low-port:
                        listen: %s
                        service: udp
                        farm: one
                    """.formatted(PRIVILEGED_VIP));
            // The unit's SystemCallFilter too, where libseccomp's Python binding is there to apply it. The
            // service user runs what is in this directory: the build's tree may not be readable to it.
            boolean filtered = seccompAvailable();
            List<String> run = new ArrayList<>();
            if (filtered) {
                Path filter = Files.copy(SYSCALL_FILTER_EXEC, dir.resolve("filter.py"));
                run.addAll(List.of("/usr/bin/python3", filter.toString(), UNIT.toString()));
            } else {
                System.err.println("DebianPackageIT: python3-seccomp is not installed: the director runs without"
                        + " the unit's system call filter");
            }
            // The unit's command, with this test's configuration for the installed one.
            ServiceSandbox unit = ServiceSandbox.of(UNIT);
            List<String> execStart = unit.execStart();
            assertThat(execStart).endsWith("-c", CONFIG.toString());
            run.addAll(execStart.subList(0, execStart.size() - 1));
            run.add(config.toString());
            node = new ProcessBuilder(unit.setpriv(run))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            Process running = node;
            // The admin port is ephemeral: the node logs where it listens once every listener is bound.
            Pattern adminOn = Pattern.compile("admin on /127\\.0\\.83\\.1:(\\d+)");
            int adminPort = await().atMost(Duration.ofSeconds(60)).until(() -> {
                assertThat(running.isAlive()).as("switchboard run: %s", Files.readString(log)).isTrue();
                Matcher m = adminOn.matcher(Files.readString(log));
                return m.find() ? Integer.parseInt(m.group(1)) : -1;
            }, port -> port > 0);

            String process = Files.readString(Path.of("/proc/" + node.pid() + "/status"));
            assertThat(process).as("the JVM runs as switchboard").containsPattern("Uid:\\s+" + serviceUid() + "\\s");
            assertThat(process).as("without new privileges").containsPattern("NoNewPrivs:\\s+1");
            // CAP_NET_BIND_SERVICE (bit 10) alone: ambient, and all the bounding set holds.
            assertThat(process).containsPattern("CapAmb:\\s+0000000000000400")
                    .containsPattern("CapBnd:\\s+0000000000000400");
            if (filtered) {
                assertThat(process).as("under a system call filter").containsPattern("Seccomp:\\s+2");
            }
            HttpClient http = HttpClient.newHttpClient();
            URI base = URI.create("http://127.0.83.1:" + adminPort);
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(base.resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            JsonNode status = new ObjectMapper().readTree(health.body());
            assertThat(status.path("status").asText()).as(health.body()).isEqualTo("UP");
            assertThat(status.at("/virtualServers/low-port").asText()).as(health.body()).isEqualTo("UP");

            // ExecReload: SIGHUP reads the file again; unchanged, and counted so.
            Tools.Result hup = Tools.run(dir, "kill", "-HUP", Long.toString(node.pid()));
            assertThat(hup.exit()).as(hup.output()).isZero();
            HttpRequest metrics = HttpRequest.newBuilder(base.resolve("/metrics")).build();
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                    assertThat(http.send(metrics, HttpResponse.BodyHandlers.ofString()).body())
                            .contains("switchboard_config_reloads_total{result=\"unchanged\"} 1.0"));

            // The unit's stop: SIGTERM, a graceful shutdown, and 143 (SuccessExitStatus=143).
            node.destroy();
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).as("stopped within the unit's TimeoutStopSec").isTrue();
            assertThat(node.exitValue()).as(Files.readString(log)).isEqualTo(143);
            assertThat(Files.readString(log)).contains("drained: nothing left in flight");
        } finally {
            if (node != null && node.isAlive()) {
                node.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            for (String f : List.of("switchboard.yaml", "switchboard.log", "filter.py")) {
                Files.deleteIfExists(dir.resolve(f));
            }
            Files.deleteIfExists(dir);
        }
    }

    @Test
    @Order(5)
    void anUpgradeKeepsTheOperatorsConfiguration() throws Exception {
        String edited = Files.readString(CONFIG) + "# edited by the operator\n";
        Files.writeString(CONFIG, edited);
        // The same package again: dpkg runs the upgrade's scripts (prerm upgrade, postinst configure OLD).
        // The package's conffile did not change, so the edited one stays without a question asked.
        Tools.Result upgrade = Tools.run(DEB_DIR, 120, Map.of(), List.of("dpkg", "-i", deb.toString()));
        assertThat(upgrade.exit()).as(upgrade.output()).isZero();
        assertThat(CONFIG).hasContent(edited);
        PosixFileAttributes config = Files.readAttributes(CONFIG, PosixFileAttributes.class);
        assertThat(config.group().getName()).isEqualTo("switchboard");
        assertThat(config.permissions()).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
        assertThat(Path.of("/etc/systemd/system/multi-user.target.wants/switchboard.service")).isSymbolicLink();
    }

    @Test
    @Order(6)
    void lintianFindsNoErrorOrWarning() throws Exception {
        assumeTrue(lintian != null, "lintian is not installed (Debian package lintian; .ci/run installs it)");
        assertThat(lintian.waitFor(120, TimeUnit.SECONDS)).as("lintian finished").isTrue();
        assertThat(lintian.exitValue()).as(Files.readString(lintianOutput)).isZero();
    }

    @Test
    @Order(7)
    void removalKeepsTheConfigurationAndPurgeRemovesItAndTheState() throws Exception {
        Tools.Result remove = Tools.run(DEB_DIR, 120, Map.of(), List.of("dpkg", "-r", "switchboard"));
        assertThat(remove.exit()).as(remove.output()).isZero();
        assertThat(Path.of("/usr/bin/switchboard")).doesNotExist();
        assertThat(UNIT).doesNotExist();
        assertThat(CONFIG).exists();

        Tools.Result purge = Tools.run(DEB_DIR, 120, Map.of(), List.of("dpkg", "--purge", "switchboard"));
        assertThat(purge.exit()).as(purge.output()).isZero();
        installed = false;
        assertThat(Path.of("/etc/switchboard")).doesNotExist();
        assertThat(Path.of("/etc/default/switchboard")).doesNotExist();
        assertThat(STATE).doesNotExist();
        assertThat(Path.of("/usr/share/switchboard")).doesNotExist();
        assertThat(Path.of("/etc/systemd/system/multi-user.target.wants/switchboard.service")).doesNotExist();
        // The account stays, as Debian recommends (files it owned may remain; see postrm).
        assertThat(Tools.run(DEB_DIR, "getent", "passwd", "switchboard").exit()).isZero();
    }

    private static boolean seccompAvailable() throws IOException, InterruptedException {
        return Files.isExecutable(Path.of("/usr/bin/python3"))
                && Tools.run(DEB_DIR, "/usr/bin/python3", "-c", "import seccomp").exit() == 0;
    }

    private static String serviceUid() throws IOException, InterruptedException {
        return Tools.run(DEB_DIR, "id", "-u", "switchboard").output().strip();
    }
}
