package io.switchboard.director.radius;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the RADIUS plug-in's decisions (issue 22) through the engine — requests and answers,
 * authenticators and Message-Authenticator, accounting, State, VSA correlation, route map:
 * {@link RadiusDecisionTarget} says what an input is and what must hold. Not part of the suite:
 * {@code benchmarks/fuzz/run.sh radius-director} runs it ({@code -Pfuzz}) and keeps its corpus in
 * {@code fuzz/radius-director.hex}, which {@link RadiusDecisionFuzzFindingsTest} replays.
 */
class RadiusDecisionFuzzTest {

    private static RadiusDecisionTarget target;

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decisions(byte[] input) throws Exception {
        if (target == null) {
            target = new RadiusDecisionTarget();
        }
        target.run(input);
    }
}
