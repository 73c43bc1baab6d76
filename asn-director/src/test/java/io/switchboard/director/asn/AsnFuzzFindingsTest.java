package io.switchboard.director.asn;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;

/** The decision fuzz target's seeds and every input its runs kept ({@code fuzz/asn.hex}) still meet its rules. */
class AsnFuzzFindingsTest {

    @Test
    void seedsGoAllTheWayThrough() throws Exception {
        AsnDecisionTarget target = new AsnDecisionTarget();
        FuzzCorpus.writeSeedsIfAsked("asn", "asn: inputs of AsnFuzzTest (AsnDecisionTarget: first octet bit 0 the path,"
                + " bits 1-2 the NWG release, bits 5-6 the reader index), one per line, replayed by AsnFuzzFindingsTest\n"
                + "the seeds are the mutation test's valid messages; benchmarks/fuzz/run.sh adds what the fuzzer kept",
                target.seedInputs());
        for (byte[] input : target.seedInputs()) {
            target.run(input);
        }
        // Not vacuous: every valid message from the base station is forwarded, every valid answer relayed (the
        // first answer seed of each release answers the pending request; the others answer nothing pending).
        int releases = target.requests.size();
        assertThat(target.forwarded).isEqualTo(releases * target.requests.get(0).size());
        assertThat(target.relayed).isEqualTo(releases);
    }

    @Test
    void fuzzCorpusReplays() throws Exception {
        AsnDecisionTarget target = new AsnDecisionTarget();
        FuzzCorpus.replay("asn", input -> {
            try {
                target.run(input);
            } catch (Exception e) {
                throw new AssertionError("a DecodeException escaped the engine", e);
            }
        });
    }
}
