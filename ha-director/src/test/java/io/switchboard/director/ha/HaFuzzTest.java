package io.switchboard.director.ha;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the Home Agent Director's decisions (issue 22) through the engine:
 * {@link HaDecisionTarget} says what an input is and what must hold. Not part of the suite:
 * {@code benchmarks/fuzz/run.sh ha} runs it ({@code -Pfuzz}) and keeps its corpus in {@code fuzz/ha.hex}, which
 * {@link HaFuzzFindingsTest} replays.
 */
class HaFuzzTest {

    private static HaDecisionTarget target;

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decisions(byte[] input) throws Exception {
        if (target == null) {
            target = new HaDecisionTarget();
        }
        target.run(input);
    }
}
