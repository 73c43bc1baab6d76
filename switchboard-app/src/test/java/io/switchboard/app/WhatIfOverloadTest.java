package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The one engine: what-if, on the captures' own clock, refuses by a virtual server's {@code overload}
 * section what the live director would — the same admission, asked by the same engine.
 */
class WhatIfOverloadTest {

    private static final Path LAB = Path.of("src/test/resources/whatif/lab.yaml");
    private static final String CAPTURE = "src/test/resources/pcaps/radius/radius_localhost.pcap";

    @TempDir
    Path dir;

    private JsonNode summary(Path config) throws Exception {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(new StringWriter(), true));
        assertThat(cli.execute("whatif", "-c", config.toString(), CAPTURE)).isZero();
        String[] lines = out.toString().split("\n");
        return new ObjectMapper().readTree(lines[lines.length - 1]).get("summary");
    }

    @Test
    void whatIfRefusesWhatTheAdmissionRateRefuses() throws Exception {
        Path limited = dir.resolve("limited.yaml");
        Files.writeString(limited, Files.readString(LAB).replace("    sticky: { keys: [calling-station-id, username], idle: 1h }\n",
                "    sticky: { keys: [calling-station-id, username], idle: 1h }\n"
                        + "    overload: { new-per-second: 1, burst: 1ms }\n"));
        assertThat(Files.readString(limited)).contains("overload:");

        JsonNode free = summary(LAB);
        JsonNode refused = summary(limited);
        assertThat(free.at("/reasons/dropped:overload").isMissingNode()).isTrue();
        assertThat(refused.at("/reasons/dropped:overload").asInt()).as("Access-Requests closer than 1 s apart")
                .isPositive();
        assertThat(refused.get("requests").asInt()).isEqualTo(free.get("requests").asInt());
    }
}
