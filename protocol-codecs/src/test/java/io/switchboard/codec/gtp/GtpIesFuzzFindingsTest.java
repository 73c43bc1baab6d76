package io.switchboard.codec.gtp;

import io.switchboard.codec.testing.FuzzCorpus;
import org.junit.jupiter.api.Test;

/** Every input of {@code fuzz/gtp-ies.hex} (seeds: the GTP target's corpus; then what the fuzzer kept) meets {@link GtpIeDecoders}' rule. */
class GtpIesFuzzFindingsTest {

    @Test
    void fuzzCorpusReplays() {
        FuzzCorpus.replay("gtp-ies", GtpIeDecoders::exercise);
    }
}
