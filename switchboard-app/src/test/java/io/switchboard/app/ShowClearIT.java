package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code switchboard show ...} and {@code clear ...} against a running node, as an IOS operator types
 * {@code show ip slb sticky}, {@code clear ip slb sticky gtp imsi}, {@code clear ip slb sessions} and
 * {@code clear ip slb counters}: two GTPv1 subscribers attach through a {@code gtp-inspect} virtual server,
 * the tables show them, and each clear removes what it names and nothing else.
 */
class ShowClearIT {

    private static final String FIRST = "262420000000001";
    private static final String SECOND = "262420000000002";

    private GgsnStandIn ggsn;
    private Node node;
    private URI base;
    private String real;

    @BeforeEach
    void start() throws Exception {
        ggsn = new GgsnStandIn();
        real = "127.0.0.1:" + ggsn.port();
        node = Nodes.started(ggsn.inspectConfig());
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
        attach((byte) 0x01, (byte) 0xf1);
        attach((byte) 0x02, (byte) 0xf2);
    }

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        ggsn.close();
    }

    /** IMSI 26242000000000{n} attaches: its create is answered 128 by the GGSN. */
    private void attach(byte sequence, byte lastImsiOctet) throws Exception {
        GgsnStandIn.attach(node.director().localAddress("gtp-c"), sequence, lastImsiOctet);
    }

    private String run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        String[] withAdmin = java.util.Arrays.copyOf(args, args.length + 2);
        withAdmin[args.length] = "--admin";
        withAdmin[args.length + 1] = base.toString();
        int exit = cli.execute(withAdmin);
        assertThat(exit).as("%s: %s", String.join(" ", args), err).isZero();
        return out.toString();
    }

    private String metrics() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve("/metrics")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void theTablesShowWhatTheNodeHolds() throws Exception {
        assertThat(run("show", "sticky")).contains(FIRST, SECOND, real, "imsi", "2 of 2 bindings listed");
        assertThat(run("show", "sticky", "imsi")).contains("2 of 2 bindings listed");
        assertThat(run("show", "sticky", "imsi", FIRST)).contains("imsi " + FIRST + ": farm ggsn, real " + real);
        assertThat(run("show", "sessions")).contains(FIRST, SECOND, "real TEID-C 0x00abcdef", "2 sessions");
        assertThat(run("show", "sessions", "--real", "127.0.0.9:2123")).contains("0 sessions");
        assertThat(run("show", "reals")).containsPattern(real.replace(".", "\\.") + "\\s+ggsn\\s+8\\s+OPERATIONAL\\s+2\\s+2");
        assertThat(run("show", "reals", "detail")).contains("requests = 2, answered = 2, unanswered = 0");
        assertThat(run("show", "serverfarms")).containsPattern("ggsn\\s+LEASTCONNS\\s+1\\s+1");
        assertThat(run("show", "vservers")).containsPattern("gtp-c\\s+gtp-inspect\\s+127\\.0\\.0\\.1:\\d+\\s+ggsn\\s+OPERATIONAL\\s+2\\s+2");
        assertThat(run("show", "stats")).contains("Requests received:            2", "Counters cleared:             never");
        assertThat(run("show", "cluster")).contains("not enabled");
        assertThat(run("show", "config", "ios")).contains("ip slb serverfarm ggsn", " predictor leastconns", " real " + real.replace(":", " "));
        assertThat(run("show", "reals", "--json")).startsWith("[").contains("\"state\" : \"OPERATIONAL\"");
    }

    @Test
    void eachClearRemovesWhatItNamesAndNothingElse() throws Exception {
        run("clear", "sticky", "imsi", FIRST);
        assertThat(run("show", "sticky")).contains(SECOND).doesNotContain(FIRST).contains("1 of 1 bindings listed");
        assertThat(run("show", "sessions")).as("sessions are not bindings").contains("2 sessions");

        assertThat(run("clear", "sticky", "imsi")).contains("removed 1 bindings of kind imsi");
        assertThat(run("show", "sticky")).contains("0 of 0 bindings listed");

        run("clear", "counters");
        assertThat(run("show", "stats")).contains("Requests received:            0").doesNotContain("never");
        assertThat(run("show", "reals", "detail")).contains("requests = 0, answered = 0");
        assertThat(metrics()).as("Prometheus counters never go back")
                .containsPattern("switchboard_requests_forwarded_total\\{[^}]*vserver=\"gtp-c\"[^}]*\\} 2\\.0");
        attach((byte) 0x03, (byte) 0xf3);
        assertThat(run("show", "stats")).contains("Requests received:            1");

        assertThat(run("clear", "sessions", "--real", "127.0.0.9:2123")).contains("cleared 0 sessions");
        assertThat(run("clear", "sessions", "--real", real)).contains("cleared 3 sessions");
        assertThat(run("show", "sessions")).contains("0 sessions");
        assertThat(metrics()).containsPattern("switchboard_gtp_sessions_cleared_total\\{[^}]*vserver=\"gtp-c\"[^}]*\\} 3\\.0");
    }
}
