package io.switchboard.codec.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Message;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every message of the GTP table in docs/protocols.md (echo, create, update, delete; request and response;
 * three versions) has at least one vector, which the round-trip and malformed-input tests then use.
 */
class GtpMessageTableCoverageTest {

    @Test
    void everyMessageOfTheTableHasAVector() throws Exception {
        Set<String> seen = new HashSet<>();
        boolean createSessionWithBearerContext = false;
        for (GtpVectors.Vector v : GtpVectors.all()) {
            switch (v.version()) {
                case 0 -> seen.add("v0/" + GtpVectors.decode(v.bytes(), GtpV0Codec::decode).type().value());
                case 1 -> seen.add("v1/" + GtpVectors.decode(v.bytes(), GtpV1Codec::decode).type().value());
                default -> {
                    for (GtpV2Message m : GtpVectors.decode(v.bytes(), GtpV2Codec::decodeAll)) {
                        seen.add("v2/" + m.type().value());
                        createSessionWithBearerContext |= m.type().value() == 32 && !m.bearerContexts().isEmpty();
                    }
                }
            }
        }
        assertThat(seen).contains("v0/1", "v0/2", "v0/16", "v0/17", "v0/18", "v0/19", "v0/20", "v0/21",
                "v1/1", "v1/2", "v1/16", "v1/17", "v1/18", "v1/19", "v1/20", "v1/21",
                "v2/1", "v2/2", "v2/32", "v2/33", "v2/34", "v2/35", "v2/36", "v2/37");
        assertThat(createSessionWithBearerContext).isTrue();
    }
}
