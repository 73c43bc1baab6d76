package io.switchboard.director.gtp;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the transparent GTP plug-in's decisions (issue 22, {@code service: gtp}) through the engine:
 * creates, echoes, answers and resends,
 * {@link GtpDecisionTarget} says what an input is and what must hold. Not part of the suite:
 * {@code benchmarks/fuzz/run.sh gtp-director} runs it ({@code -Pfuzz}) and keeps its corpus in
 * {@code fuzz/gtp-director.hex}, which {@link GtpDecisionFuzzFindingsTest} replays.
 */
class GtpDecisionFuzzTest {

    private static GtpDecisionTarget target;

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decisions(byte[] input) throws Exception {
        if (target == null) {
            target = new GtpDecisionTarget();
        }
        target.run(input);
    }
}
