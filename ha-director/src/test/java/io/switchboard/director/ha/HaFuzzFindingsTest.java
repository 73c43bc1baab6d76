package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;

/** The decision fuzz target's seeds and every input its runs kept ({@code fuzz/ha.hex}) still meet its rules. */
class HaFuzzFindingsTest {

    @Test
    void seedsGoAllTheWayThrough() throws Exception {
        HaDecisionTarget target = new HaDecisionTarget();
        FuzzCorpus.writeSeedsIfAsked("ha", "ha: inputs of HaFuzzTest (HaDecisionTarget: first octet bit 0 the path, bit 1"
                + " rewrite-home-agent, bits 2-4 the pending request, bits 5-6 the reader index), one per line, replayed"
                + " by HaFuzzFindingsTest\nthe seeds are the mutation test's valid requests and replies; benchmarks/fuzz/run.sh"
                + " adds what the fuzzer kept", target.seedInputs());
        for (byte[] input : target.seedInputs()) {
            target.run(input);
        }
        // Not vacuous: every valid request is forwarded and every valid reply relayed, with and without rewriting.
        assertThat(target.forwarded).isEqualTo(2 * target.requests.size());
        assertThat(target.relayed).isEqualTo(2 * target.replies.size());
    }

    @Test
    void fuzzCorpusReplays() throws Exception {
        HaDecisionTarget target = new HaDecisionTarget();
        FuzzCorpus.replay("ha", input -> {
            try {
                target.run(input);
            } catch (Exception e) {
                throw new AssertionError("a DecodeException escaped the engine", e);
            }
        });
    }
}
