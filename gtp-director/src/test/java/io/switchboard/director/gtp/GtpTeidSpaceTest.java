package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.NodeSlot;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The director's TEID pairs: the node's slot in the top bits, never 0, never a pair in use once it may be. */
class GtpTeidSpaceTest {

    private final Set<Long> inUse = new HashSet<>();
    private final Set<Long> lookedUp = new HashSet<>();

    private GtpTeidSpace space(int first, boolean shared) {
        return new GtpTeidSpace(first, () -> shared, pair -> {
            lookedUp.add(pair);
            return inUse.contains(pair);
        });
    }

    @Test
    void aNodesPairsCarryItsSlotInTheTopBitsAndAreEven() {
        GtpTeidSpace space = space(1, true);
        space.attach(new NodeSlot(5, 64));
        for (int i = 1; i <= 3; i++) {
            long pair = space.allocatePair();
            assertThat(pair >>> 26).as("slot 5 of 64 in the top 6 of 32 bits").isEqualTo(5);
            assertThat(pair & 0x03FF_FFFFL).isEqualTo(2L * i);
        }
    }

    @Test
    void aloneBeforeTheCounterWrapsNoPairIsLookedUp() {
        GtpTeidSpace space = space(1, false);
        assertThat(space.allocatePair()).isEqualTo(2);
        assertThat(space.allocatePair()).isEqualTo(4);
        assertThat(lookedUp).isEmpty();
    }

    @Test
    void inAClusterAPairInUseIsSkipped() {
        GtpTeidSpace space = space(1, true);
        space.attach(new NodeSlot(1, 64));
        long slotBase = 1L << 26;
        inUse.add(slotBase | 2);
        assertThat(space.allocatePair()).as("a pair another node's session holds").isEqualTo(slotBase | 4);
    }

    @Test
    void afterTheCounterWrapsZeroAndPairsInUseAreSkipped() {
        GtpTeidSpace space = space(Integer.MAX_VALUE, false);
        assertThat(space.allocatePair()).isEqualTo(0xFFFF_FFFEL);
        assertThat(lookedUp).isEmpty();
        inUse.add(2L);
        // Integer.MIN_VALUE << 1 is 0 in 32 bits: never a TEID; then 2 is in use, 4 is free.
        assertThat(space.allocatePair()).isEqualTo(4);
        assertThat(lookedUp).containsExactlyInAnyOrder(2L, 4L);
    }
}
