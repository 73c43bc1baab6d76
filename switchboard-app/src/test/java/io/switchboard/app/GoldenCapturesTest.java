package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import picocli.CommandLine;

/**
 * The golden captures: every sample capture of {@code pcaps/} (all but {@code negative/}) runs
 * through {@code golden/golden.yaml} with {@code switchboard whatif}, and its summary must equal the
 * checked-in {@code golden/<capture>.summary.json} — requests per real, reasons, bindings, answers
 * used — with zero stickiness violations. A change of the engine or a plug-in that moves a request
 * shows up here as a diff.
 *
 * <p>After a deliberate change, write the summaries again with
 * {@code -Dgolden.update=true} and review the diff before committing it.
 */
class GoldenCapturesTest {

    private static final Path PCAPS = SampleCaptures.PCAPS;
    private static final Path GOLDEN = SampleCaptures.GOLDEN;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestFactory
    Stream<DynamicTest> everySampleCaptureGivesItsGoldenSummary() throws IOException {
        List<Path> captures = SampleCaptures.all();
        assertThat(captures).hasSizeGreaterThanOrEqualTo(30);
        return captures.stream().map(capture -> DynamicTest.dynamicTest(PCAPS.relativize(capture).toString(),
                () -> check(capture)));
    }

    private static void check(Path capture) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute("whatif", "--quiet", "-c", GOLDEN.resolve("golden.yaml").toString(), capture.toString());
        assertThat(status).as("exit status; stderr: %s", err).isZero();
        JsonNode summary = JSON.readTree(out.toString().strip()).get("summary");
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
        Path expected = GOLDEN.resolve(PCAPS.relativize(capture) + ".summary.json");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(expected.getParent());
            Files.writeString(expected, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary) + "\n");
        }
        assertThat(expected).as("golden summary (write it with -Dgolden.update=true)").exists();
        assertThat(summary).isEqualTo(JSON.readTree(expected.toFile()));
    }
}
