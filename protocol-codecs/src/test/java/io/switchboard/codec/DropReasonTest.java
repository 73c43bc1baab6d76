package io.switchboard.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DropReasonTest {

    @Test
    void sameNameGivesSameInstance() {
        assertThat(DropReason.of("truncated")).isSameAs(DropReason.TRUNCATED);
        assertThat(DropReason.of("gtp-bad-ie")).isSameAs(DropReason.of("gtp-bad-ie"));
    }

    @Test
    void decodeExceptionIsStacklessAndCarriesItsReason() {
        DecodeException e = DecodeException.truncated("GTPv1 header", 0, 8, 3);
        assertThat(e.reason()).isSameAs(DropReason.TRUNCATED);
        assertThat(e.getStackTrace()).isEmpty();
        assertThat(e.getMessage()).isEqualTo("GTPv1 header: need 8 bytes at offset 0, have 3");
    }
}
