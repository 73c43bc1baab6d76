package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The capture conformance suite: every sample capture the project ships goes through
 * {@code golden.yaml} offline and through a live director on loopback ({@code whatif --compare}),
 * and the two must agree on every line and every summary field. A planted divergence — the live
 * run's {@code gtp-inspect} plug-in wrapped so that it never resends a refused create — must make
 * {@code --compare} fail.
 */
class CaptureConformanceIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(WhatIfCommand command, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @TestFactory
    Stream<DynamicTest> offlineAndLiveAgreeOnEverySampleCapture() throws Exception {
        List<Path> captures = SampleCaptures.all();
        assertThat(captures).hasSizeGreaterThanOrEqualTo(30);
        return captures.stream().map(capture -> DynamicTest.dynamicTest(SampleCaptures.PCAPS.relativize(capture).toString(),
                () -> {
                    int status = execute(new WhatIfCommand(), "--compare", "--quiet", "-c",
                            SampleCaptures.CONFIG.toString(), capture.toString());
                    assertThat(status).as("--compare exit status; out: %s; err: %s", out, err).isZero();
                    JsonNode summary = JSON.readTree(out.toString().strip()).get("summary");
                    assertThat(summary.get("requests").asInt()).isGreaterThanOrEqualTo(0);
                    assertThat(out.toString()).doesNotContain("live:");
                }));
    }

    @Test
    void offlineAndLiveAgreeOnEverySampleCaptureInOneRunAndThroughEveryWhatIfConfiguration() throws Exception {
        // One run over all captures: each file's clock starts where the previous one's ended, so what
        // one capture left pending (Mobile IP ids kept end to end: pending-full) meets the next. The
        // what-if configurations add generic UDP (client flows), a full sticky table, an address-bound
        // virtual server.
        List<String> captures = SampleCaptures.all().stream().map(Path::toString).toList();
        for (String config : List.of(SampleCaptures.CONFIG.toString(), "src/test/resources/whatif/lab.yaml",
                "src/test/resources/whatif/small-table.yaml", "src/test/resources/whatif/fixed-address.yaml",
                "src/test/resources/whatif/gtp-inspect.yaml")) {
            out.getBuffer().setLength(0);
            List<String> args = new java.util.ArrayList<>(List.of("--compare", "--quiet", "-c", config));
            args.addAll(captures);
            assertThat(execute(new WhatIfCommand(), args.toArray(String[]::new)))
                    .as("%s: out: %s; err: %s", config, out, err).isZero();
        }
        out.getBuffer().setLength(0);
        // Reals failing on every unanswered request and tested again 3 s later, one taken out of
        // service too: the farms' timers and the expiries run in one order in both.
        List<String> failing = new java.util.ArrayList<>(List.of("--compare", "--quiet", "-c",
                "src/test/resources/whatif/fail-fast.yaml", "--fail", "aaa-auth/10.0.0.2:1812@+1s"));
        failing.addAll(captures);
        assertThat(execute(new WhatIfCommand(), failing.toArray(String[]::new))).as("out: %s; err: %s", out, err).isZero();
        out.getBuffer().setLength(0);
        // A real failed at a frame: its sessions' requests still go to it, in both.
        assertThat(execute(new WhatIfCommand(), "--compare", "-c", "src/test/resources/whatif/gtp-inspect.yaml",
                "--fail", "10.0.2.3:2123@5", SampleCaptures.PCAPS.resolve("crafted/gtpv2-resource-cause.pcap").toString()))
                .as("out: %s; err: %s", out, err).isZero();
    }

    @Test
    void requestsLeftUnansweredFailTheRealsAlikeInBoth(@TempDir Path dir) throws Exception {
        // WhatIfCommandTest's capture: 20 unanswered Access-Requests, 3 s apart; both reals fail.
        Path capture = WhatIfCommandTest.unansweredRequests(dir.resolve("unanswered.pcap"));
        assertThat(execute(new WhatIfCommand(), "--compare", "-c", "src/test/resources/whatif/lab.yaml",
                capture.toString())).as("out: %s; err: %s", out, err).isZero();
        assertThat(out.toString()).contains("dropped:no-real-available");
    }

    @Test
    void anAccountingOnFannedOutAgreesInBoth(@TempDir Path dir) throws Exception {
        Path capture = WhatIfCommandTest.accountingOn(dir.resolve("on.pcap"));
        assertThat(execute(new WhatIfCommand(), "--compare", "-c", SampleCaptures.CONFIG.toString(), capture.toString()))
                .as("out: %s; err: %s", out, err).isZero();
        assertThat(out.toString()).contains("\"reason\":\"fan-out\"");
    }

    @Test
    void theLiveRunPrintsWhatTheDirectorDid() throws Exception {
        // crafted/gtpv2-resource-cause.pcap through live gtp-inspect: the refused Create is resent
        // to the other real, which keeps the session's Modify and Delete (see WhatIfCommandTest).
        assertThat(execute(new WhatIfCommand(), "--live", "-c", SampleCaptures.CONFIG.toString(),
                SampleCaptures.PCAPS.resolve("crafted/gtpv2-resource-cause.pcap").toString())).isZero();
        List<JsonNode> lines = out.toString().lines().map(CaptureConformanceIT::read).toList();
        assertThat(lines.get(0).get("reason").asText()).isEqualTo("reassigned");
        assertThat(lines.get(0).get("refused_by").get(0).asText()).isEqualTo("sgw/10.0.2.2:2123");
        assertThat(lines.subList(1, 4)).extracting(n -> n.get("real").asText() + " " + n.get("reason").asText())
                .containsExactly("sgw/10.0.2.3:2123 predictor", "sgw/10.0.2.3:2123 sticky", "sgw/10.0.2.3:2123 sticky");
        assertThat(lines.get(lines.size() - 1).at("/summary/reassigned_after_refusal").asInt()).isEqualTo(1);
    }

    @Test
    void bothRunsLeaveTheRealsAlike() throws Exception {
        // crafted/gtpv2-reattach.pcap: the second session stays open on 10.0.2.3 (no Delete follows).
        Services services = Services.discover();
        io.switchboard.director.config.SwitchboardConfig config =
                new io.switchboard.app.config.ConfigLoader(services.available()).load(SampleCaptures.CONFIG);
        Path capture = SampleCaptures.PCAPS.resolve("crafted/gtpv2-reattach.pcap");
        io.switchboard.pcap.WhatIf offline = new io.switchboard.pcap.WhatIf(config, services::forVirtualServer, List.of());
        offline.run(capture, null, o -> { });
        try (io.switchboard.pcap.LiveWhatIf live = new io.switchboard.pcap.LiveWhatIf(config, services::forVirtualServer,
                List.of())) {
            live.run(capture, null, o -> { });
            assertThat(live.realsAtEnd()).isEqualTo(offline.realsAtEnd());
        }
        assertThat(offline.realsAtEnd().get("sgw/10.0.2.3:2123")).containsEntry("state", "OPERATIONAL")
                .containsEntry("gtp_sessions_open", 1L).containsEntry("requests", 2L).containsEntry("answered", 2L)
                .containsEntry("connections", 1L); // the open session counts as a connection
        assertThat(offline.realsAtEnd().get("sgw/10.0.2.2:2123")).containsEntry("gtp_sessions_open", 0L)
                .containsEntry("requests", 2L);
    }

    @Test
    void aDecisionChangedInOneRunMakesCompareFail() throws Exception {
        WhatIfCommand planted = new WhatIfCommand();
        planted.liveServices = services -> vs -> NoReassignPlugin.service(services.apply(vs));
        int status = execute(planted, "--compare", "-c", SampleCaptures.CONFIG.toString(),
                SampleCaptures.PCAPS.resolve("crafted/gtpv2-resource-cause.pcap").toString());
        assertThat(status).isEqualTo(1);
        List<String> lines = out.toString().lines().toList();
        // Offline resent frame 1's refused Create to 10.0.2.3; the planted live run relayed the refusal.
        String offline = lines.get(lines.size() - 2);
        String live = lines.get(lines.size() - 1);
        assertThat(offline).startsWith("offline: ");
        assertThat(read(offline.substring("offline: ".length())).get("real").asText()).isEqualTo("sgw/10.0.2.3:2123");
        assertThat(live).startsWith("live:    ");
        JsonNode liveLine = read(live.substring("live:    ".length()));
        assertThat(liveLine.get("frame").asInt()).isEqualTo(1);
        assertThat(liveLine.get("real").asText()).isEqualTo("sgw/10.0.2.2:2123");
        assertThat(err.toString()).contains("offline and live differ");
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError("not a JSON line: " + line, e);
        }
    }
}
