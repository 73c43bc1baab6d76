package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code check}, {@code run} and {@code demo} as a user calls them, in process. */
class CommandLineIT {

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

    private static final String BROKEN = """
            farms:
              ggsn:
                predictor: leastconns
                failure: { numconns: 4, numclients: 2, retry: 30 }
                reals:
                  - { address: 127.0.0.2, port: 2123, weight: 3 }
                  - { address: 127.0.0.3, port: 2123, weight: 300 }
            virtual-servers:
              echo:
                listen: 127.0.0.1:%d
                service: udp
                farm: ggsn
                sticky: { key: imsi, idle: 1h }
              other:
                listen: 127.0.0.1:0
                service: udp
                farm: ggsn2
            """;

    @Test
    void checkListsEveryErrorWithItsPathAndFails() throws Exception {
        Path file = Files.writeString(dir.resolve("broken.yaml"), BROKEN.formatted(0));

        int exit = execute("check", "-c", file.toString());

        assertThat(exit).isNotZero();
        assertThat(err.toString())
                .contains("farms.ggsn.failure.retry:")
                .contains("farms.ggsn.reals[1].weight: must be 1..255")
                .contains("virtual-servers.echo.sticky")
                .contains("virtual-servers.other.farm:");
        assertThat(out.toString()).doesNotContain("OK");
    }

    @Test
    void runRefusesABrokenConfigurationBeforeBindingAnything() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            port = probe.getLocalPort();
        }
        Path file = Files.writeString(dir.resolve("broken.yaml"), BROKEN.formatted(port));

        int exit = execute("run", "-c", file.toString());

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("farms.ggsn.reals[1].weight: must be 1..255");
        // Nothing was bound: the virtual server's port is still free.
        try (DatagramSocket again = new DatagramSocket(new InetSocketAddress("127.0.0.1", port))) {
            assertThat(again.getLocalPort()).isEqualTo(port);
        }
    }

    @Test
    void checkAcceptsAValidConfiguration() throws Exception {
        Path file = Files.writeString(dir.resolve("ok.yaml"), """
                farms:
                  web:
                    reals:
                      - { address: 127.0.0.2, port: 8053 }
                virtual-servers:
                  dns:
                    listen: 127.0.0.1:5353
                    service: udp
                    farm: web
                """);

        assertThat(execute("check", "-c", file.toString())).isZero();
        assertThat(out.toString()).contains("OK (1 farm, 1 virtual server)");
    }

    @Test
    void demoRunsAndReportsSuccess() {
        int exit = execute("demo", "--clients", "6", "--requests", "5");

        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString())
                .contains("127.0.0.11         sim-a")
                .contains("127.0.0.14         sim-b")
                .contains("127.0.0.16         sim-c")
                .contains("Demo OK");
    }

    @Test
    void gtpDemoRunsAndReportsSuccess() {
        int exit = execute("demo", "--service", "gtp-inspect");

        assertThat(exit).as(out.toString()).isZero();
        // Weights 2/1: pgw-a, pgw-a, pgw-b, ...; each IMSI's second PDN connection on the same PGW.
        assertThat(out.toString())
                .contains("001010000000001  internet/5 ims/6       pgw-a        pgw-a")
                .contains("001010000000003  internet/5 ims/6       pgw-b        pgw-b")
                .contains("001010000000006  internet/5 ims/6       pgw-b        pgw-b")
                .contains("Every answer names the director's address (127.0.0.1) as the PGW's control plane: yes.")
                .contains("001010000000009's create was refused by pgw-b (cause 73) and answered by pgw-a (cause 16)")
                .contains("Deleted 15 of 15 sessions; contexts left at the PGWs: 0; sessions the director counts: 0;"
                        + " IMSI bindings left: 0.")
                .contains("reassigned 1")
                .contains("Demo OK");
    }

    @Test
    void demoRefusesAServiceItDoesNotHave() {
        assertThat(execute("demo", "--service", "radius")).isEqualTo(2);
        assertThat(execute("demo", "--service", "gtp-inspect", "--nodes", "2")).isEqualTo(2);
        assertThat(err.toString()).contains("demo: --service must be udp or gtp-inspect, not 'radius'")
                .contains("demo: --nodes applies to the udp demo only");
    }

    @Test
    void clusterDemoOfThreeNodeProcessesRunsAndReportsSuccess() {
        int exit = execute("demo", "--nodes", "3");

        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString())
                .contains("Cluster of 3 formed")
                .contains("Through node-2", "Through node-3")
                .contains("killed with SIGKILL")
                .contains("node-2 sees 2 members", "node-3 sees 2 members")
                .doesNotContain("MISMATCH")
                .contains("Demo OK");
        // Bound by round robin through node-1, then honoured in reverse order by the others.
        assertThat(out.toString()).contains("127.0.3.11   sim-a").contains("127.0.3.14   sim-b")
                .contains("127.0.3.16   sim-c");
    }
}
