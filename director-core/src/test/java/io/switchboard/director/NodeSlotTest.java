package io.switchboard.director;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeSlotTest {

    @Test
    void aSingleNodeHasTheWholeSpace() {
        assertThat(NodeSlot.SINGLE.bits()).isZero();
        assertThat(NodeSlot.SINGLE.compose(0xDEADBEEFL, 32)).isEqualTo(0xDEADBEEFL);
        assertThat(NodeSlot.SINGLE.localSpace(32)).isEqualTo(1L << 32);
    }

    @Test
    void theIndexTakesTheTopBits() {
        NodeSlot slot = new NodeSlot(5, 64);
        assertThat(slot.bits()).isEqualTo(6);
        assertThat(slot.compose(1, 32)).isEqualTo((5L << 26) | 1);
        assertThat(slot.compose(-1, 32) >>> 26).as("a counter that wrapped keeps the index").isEqualTo(5);
        assertThat(slot.localSpace(32)).isEqualTo(1L << 26);
    }

    @Test
    void twoNodesNeverComposeTheSameValue() {
        Set<Long> seen = new HashSet<>();
        for (int node = 0; node < 4; node++) {
            NodeSlot slot = new NodeSlot(node, 4);
            for (long local = 0; local < 1_000; local++) {
                assertThat(seen.add(slot.compose(local * 7919, 16))).isTrue();
            }
        }
    }

    @Test
    void refusesAnIndexOutsideTheCapacityOrAWidthWithoutRoom() {
        assertThatThrownBy(() -> new NodeSlot(4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NodeSlot(0, 3)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NodeSlot(1, 64).compose(0, 6)).isInstanceOf(IllegalArgumentException.class);
    }
}
