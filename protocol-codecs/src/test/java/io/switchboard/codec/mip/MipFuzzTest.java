package io.switchboard.codec.mip;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the Mobile IPv4 registration view and model (issue 22): every input either decodes (and re-encodes losslessly)
 * or raises a DecodeException; anything else is a finding. Not part of the suite: `benchmarks/fuzz/run.sh` runs it
 * (`-Pfuzz`, 10 million inputs by default) and keeps its corpus in `fuzz/mip.hex`, which the suite replays.
 */
class MipFuzzTest {

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decoders(byte[] bytes) {
        MipMalformedTest.checkOutcome(bytes);
    }
}
