package io.switchboard.codec.gtp;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of every GTP v0/v1/v2 decoder entry point (issue 22): every input either decodes (and re-encodes losslessly)
 * or raises a DecodeException; anything else is a finding. Not part of the suite: `benchmarks/fuzz/run.sh` runs it
 * (`-Pfuzz`, 10 million inputs by default) and keeps its corpus in `fuzz/gtp.hex`, which the suite replays.
 */
class GtpFuzzTest {

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decoders(byte[] bytes) {
        GtpDecoders.exercise(bytes);
    }
}
