package io.switchboard.director.asn;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the ASN director's decisions (issue 22) through the engine:
 * {@link AsnDecisionTarget} says what an input is and what must hold. Not part of the suite:
 * {@code benchmarks/fuzz/run.sh asn} runs it ({@code -Pfuzz}) and keeps its corpus in {@code fuzz/asn.hex}, which
 * {@link AsnFuzzFindingsTest} replays.
 */
class AsnFuzzTest {

    private static AsnDecisionTarget target;

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decisions(byte[] input) throws Exception {
        if (target == null) {
            target = new AsnDecisionTarget();
        }
        target.run(input);
    }
}
