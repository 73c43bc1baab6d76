package io.switchboard.director.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.TestKinds;
import org.junit.jupiter.api.Test;

class StickyCodecsTest {

    @Test
    void keysAndBindingsComeBackFromTheirBytes() {
        StickyKey key = StickyKey.parse(TestKinds.MSID, "aa:bb:cc:dd:ee:ff");
        StickyBinding binding = new StickyBinding("pgw-farm", "[2001:db8::1]:2123");

        assertThat(StickyCodecs.KEYS.decode(StickyCodecs.KEYS.encode(key))).isEqualTo(key);
        assertThat(StickyCodecs.BINDINGS.decode(StickyCodecs.BINDINGS.encode(binding))).isEqualTo(binding);
    }

    @Test
    void truncatedBytesAreRefused() {
        byte[] binding = StickyCodecs.BINDINGS.encode(new StickyBinding("pgw-farm", "192.0.2.1:2123"));

        assertThatThrownBy(() -> StickyCodecs.BINDINGS.decode(java.util.Arrays.copyOf(binding, 5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("sticky binding of 5 bytes is truncated");
        assertThatThrownBy(() -> StickyCodecs.KEYS.decode(new byte[] {9, 'i'}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("sticky key of 2 bytes is truncated");
    }
}
