package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code switchboard inspect} as a user calls it: options, several files, the summary, a missing file. */
class InspectCommandTest {

    private static final String SGSNEMU = "src/test/resources/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap";
    private static final String R6_V100 = "src/test/resources/pcaps/r6/r6-crafted-v1.0.0.pcap";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    @Test
    void printsOneObjectPerMessageAndASummary() throws Exception {
        assertThat(execute("inspect", SGSNEMU)).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines).hasSize(13);
        JsonNode create = lines.get(1);
        assertThat(create.get("frame").asInt()).isEqualTo(2);
        assertThat(create.get("proto").asText()).isEqualTo("gtpv1");
        assertThat(create.get("imsi").isTextual()).isTrue();
        assertThat(create.get("imsi").asText()).isEqualTo("262420000000001");
        assertThat(create.get("seq").isNumber()).isTrue();
        JsonNode summary = lines.get(12).get("summary");
        assertThat(summary.get("packets").asInt()).isEqualTo(12);
        assertThat(summary.at("/protocols/gtpv0/packets").asInt()).isEqualTo(6);
        assertThat(summary.at("/protocols/gtpv1/types/16").asInt()).isEqualTo(1);
    }

    @Test
    void readsLibgtpTidsInTheirOwnOrderWhenAsked() throws Exception {
        // docs/interop.md: sgsnemu writes the v0 TID byte-reversed; its IMSI was 262420000000002
        assertThat(execute("inspect", "--gtpv0-tid-order=LIBGTP_REVERSED", SGSNEMU)).isZero();
        assertThat(lines()).filteredOn(n -> n.path("proto").asText().equals("gtpv0") && n.path("type").asInt() == 16)
                .singleElement().satisfies(n -> assertThat(n.get("imsi").asText()).isEqualTo("262420000000002"));
    }

    @Test
    void namesR6PreAttachmentByTheConfiguredRelease() throws Exception {
        assertThat(execute("inspect", "--nwg-release=R1_0_V1_0_0", R6_V100)).isZero();
        JsonNode first = lines().get(0);
        assertThat(first.get("type").asInt()).isEqualTo(6);
        assertThat(first.get("pre_attachment").asText()).isEqualTo("REQUEST");
        assertThat(first.get("msid").asText()).matches("([0-9a-f]{2}:){5}[0-9a-f]{2}");
    }

    @Test
    void labelsEachObjectWithItsFileWhenGivenSeveral() throws Exception {
        assertThat(execute("inspect", SGSNEMU, R6_V100)).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines.subList(0, lines.size() - 1)).allSatisfy(n -> assertThat(n.has("file")).isTrue());
        assertThat(lines.get(lines.size() - 1).at("/summary/protocols/r6/packets").asInt()).isPositive();
    }

    @Test
    void aMissingFileIsAnErrorButTheOthersAreStillRead() throws Exception {
        assertThat(execute("inspect", "no-such.pcap", SGSNEMU)).isEqualTo(2);
        assertThat(err.toString()).contains("no-such.pcap");
        assertThat(lines().get(lines().size() - 1).at("/summary/packets").asInt()).isEqualTo(12);
    }
}
