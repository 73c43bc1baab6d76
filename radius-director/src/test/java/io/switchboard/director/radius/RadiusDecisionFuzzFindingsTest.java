package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;

/** The decision fuzz target's seeds and every input its runs kept ({@code fuzz/radius-director.hex}) still meet its rules. */
class RadiusDecisionFuzzFindingsTest {

    @Test
    void seedsGoAllTheWayThrough() throws Exception {
        RadiusDecisionTarget target = new RadiusDecisionTarget();
        FuzzCorpus.writeSeedsIfAsked("radius-director", "radius-director: inputs of RadiusDecisionFuzzTest"
                + " (RadiusDecisionTarget: first octet bit 0 the path, bit 1 re-sign, bit 2 a recvmmsg slice, bit 3 the"
                + " set-up, bits 4-6 the pending request), one per line, replayed by RadiusDecisionFuzzFindingsTest\n"
                + "the seeds are the mutation test's valid requests and answers; benchmarks/fuzz/run.sh adds what the"
                + " fuzzer kept", target.seedInputs());
        for (byte[] input : target.seedInputs()) {
            target.run(input);
        }
        // Not vacuous: every valid request is forwarded and every valid answer relayed, in both set-ups.
        assertThat(target.forwarded).as("refused: %s", target.refused).isEqualTo(2 * target.requests.size());
        assertThat(target.relayed).as("refused: %s", target.refused).isEqualTo(2 * target.answerSeeds());
    }

    @Test
    void fuzzCorpusReplays() throws Exception {
        RadiusDecisionTarget target = new RadiusDecisionTarget();
        FuzzCorpus.replay("radius-director", input -> {
            try {
                target.run(input);
            } catch (Exception e) {
                throw new AssertionError("a DecodeException escaped the engine", e);
            }
        });
    }
}
