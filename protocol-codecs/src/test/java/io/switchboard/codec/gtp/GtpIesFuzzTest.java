package io.switchboard.codec.gtp;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the GTP entry points besides the decoders (issue 22): echo recovery, sender F-TEID,
 * node load, APN, TBCD; {@link GtpIeDecoders} says what must hold. Not part of the suite:
 * {@code benchmarks/fuzz/run.sh gtp-ies} runs it ({@code -Pfuzz}) and keeps its corpus in {@code fuzz/gtp-ies.hex},
 * which {@link GtpIesFuzzFindingsTest} replays.
 */
class GtpIesFuzzTest {

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decoders(byte[] bytes) {
        GtpIeDecoders.exercise(bytes);
    }
}
