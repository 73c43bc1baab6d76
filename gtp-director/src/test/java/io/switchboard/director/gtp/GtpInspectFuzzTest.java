package io.switchboard.director.gtp;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of {@code gtp-inspect}'s decisions (issue 22): every entry point the engine
 * calls for a datagram from the requester or from the real, on one plug-in whose sessions accumulate
 * as a live one's do ({@link GtpInspectPluginTest.DecisionTarget}); anything but a DecodeException is a
 * finding. Not part of the suite: {@code benchmarks/fuzz/run.sh gtp-inspect} runs it ({@code -Pfuzz})
 * and keeps its corpus in {@code fuzz/gtp-inspect.hex}, which the suite replays.
 */
class GtpInspectFuzzTest {

    private static GtpInspectPluginTest.DecisionTarget target;

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decisions(byte[] input) throws Exception {
        if (target == null) {
            target = new GtpInspectPluginTest.DecisionTarget();
        }
        target.run(input);
    }
}
