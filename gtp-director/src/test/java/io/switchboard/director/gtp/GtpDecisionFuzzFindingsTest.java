package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;

/** The transparent GTP decision fuzz target's seeds and every input its runs kept ({@code fuzz/gtp-director.hex}) still meet its rules. */
class GtpDecisionFuzzFindingsTest {

    @Test
    void seedsGoAllTheWayThrough() throws Exception {
        GtpDecisionTarget target = new GtpDecisionTarget();
        FuzzCorpus.writeSeedsIfAsked("gtp-director", "gtp-director: inputs of GtpDecisionFuzzTest (GtpDecisionTarget:"
                + " first octet bit 0 the path, bit 1 v0 served, bit 2 the pending create), one per line, replayed by"
                + " GtpDecisionFuzzFindingsTest\nthe seeds are the mutation test's valid datagrams and captured ones;"
                + " benchmarks/fuzz/run.sh adds what the fuzzer kept", target.seedInputs());
        for (byte[] input : target.seedInputs()) {
            target.run(input);
        }
        // Not vacuous: the creates are forwarded, the echoes answered, the answers relayed.
        assertThat(target.forwarded).isEqualTo(3);
        assertThat(target.echoed).isEqualTo(3);
        assertThat(target.relayed).isEqualTo(3);
    }

    @Test
    void fuzzCorpusReplays() throws Exception {
        GtpDecisionTarget target = new GtpDecisionTarget();
        FuzzCorpus.replay("gtp-director", input -> {
            try {
                target.run(input);
            } catch (Exception e) {
                throw new AssertionError("a DecodeException escaped the engine", e);
            }
        });
    }
}
