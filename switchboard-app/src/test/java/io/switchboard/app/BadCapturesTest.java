package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Captures that are not captures, cut short, or of a link type the reader does not know: every
 * command ({@code inspect}, {@code whatif}, {@code replay}) names the file — and the frame, where one
 * is to blame — and never prints a stack trace.
 */
class BadCapturesTest {

    private static final Path SAMPLE = Path.of("src/test/resources/pcaps/radius/radius.pcap");
    private static final String CONFIG = "src/test/resources/golden/golden.yaml";

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path file(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    /** Each command over {@code capture}: exit 2, and stderr names the file and says {@code expected}. */
    private void everyCommandRefuses(Path capture, String expected) {
        String[][] commands = {
            {"inspect", capture.toString()},
            {"whatif", "-c", CONFIG, "--quiet", capture.toString()},
            {"replay", capture.toString(), "--to", "127.0.4.40:9", "--rate", "100", "--timeout", "100ms"},
        };
        for (String[] command : commands) {
            assertThat(execute(command)).as("%s: %s", command[0], err).isEqualTo(2);
            assertThat(err.toString()).as(command[0]).contains(capture.getFileName().toString()).contains(expected)
                    .doesNotContain("Exception").doesNotContain("\tat ");
            assertThat(out.toString()).doesNotContain("Exception");
        }
    }

    @Test
    void aFileThatIsNoCaptureIsNamed() throws Exception {
        everyCommandRefuses(file("garbage.pcap", "not a capture at all, just text".repeat(4).getBytes()),
                "unknown file format");
        everyCommandRefuses(file("empty.pcap", new byte[0]), "truncated");
    }

    @Test
    void aFileCutShortNamesTheFrameItStopsAt() throws Exception {
        byte[] whole = Files.readAllBytes(SAMPLE);
        everyCommandRefuses(file("cut-header.pcap", Arrays.copyOf(whole, 10)), "file header");
        // The header, the first record header and part of the first frame's bytes.
        everyCommandRefuses(file("cut-record.pcap", Arrays.copyOf(whole, 24 + 16 + 30)), "frame 1 cannot be read");
        // whatif still prints what it read before the cut.
        execute("whatif", "-c", CONFIG, "--quiet", dir.resolve("cut-record.pcap").toString());
        assertThat(out.toString()).contains("\"summary\"");
    }

    @Test
    void framesOfAnUnsupportedLinkTypeAreNamedOneByOne() throws Exception {
        byte[] bytes = Files.readAllBytes(SAMPLE);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(20, 105); // IEEE 802.11 (LINKTYPE 105)
        Path wifi = file("wifi.pcap", bytes);
        assertThat(execute("inspect", wifi.toString())).isZero();
        assertThat(out.toString()).contains("{\"frame\":1,\"error\":\"link type 105 is not supported")
                .contains("\"unreadable_frames\":4");
        assertThat(execute("whatif", "-c", CONFIG, wifi.toString())).isZero();
        assertThat(out.toString()).contains("{\"frame\":4,\"error\":\"link type 105 is not supported")
                .contains("\"unreadable_frames\":4");
        assertThat(execute("replay", wifi.toString(), "--to", "127.0.4.40:9")).isEqualTo(2);
        assertThat(err.toString()).contains("wifi.pcap").contains("no UDP datagram").doesNotContain("Exception");
    }

    @Test
    void theNegativeSamplesAreReadWithoutAStackTrace() throws Exception {
        try (var files = Files.list(Path.of("src/test/resources/pcaps/negative"))) {
            for (Path p : files.sorted().toList()) {
                assertThat(execute("inspect", p.toString())).as(p.toString()).isZero();
                assertThat(execute("whatif", "-c", CONFIG, "--quiet", p.toString())).as(p.toString()).isZero();
                assertThat(out.toString() + err).doesNotContain("Exception").doesNotContain("\tat ");
            }
        }
    }
}
