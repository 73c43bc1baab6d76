package io.switchboard.codec.asn.r6;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the WiMAX R6 view and model (issue 22): every input either decodes (and re-encodes losslessly)
 * or raises a DecodeException; anything else is a finding. Not part of the suite: `benchmarks/fuzz/run.sh` runs it
 * (`-Pfuzz`, 10 million inputs by default) and keeps its corpus in `fuzz/r6.hex`, which the suite replays.
 */
class R6FuzzTest {

    @FuzzTest(maxExecutions = 10_000_000, maxDuration = "4h")
    void decoders(byte[] bytes) {
        R6MalformedTest.checkOutcome(bytes);
    }
}
