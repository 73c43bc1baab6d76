package io.switchboard.director.dfp;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.spi.RealKey;

/**
 * A real's own DFP bind ID ({@code bind-id} under {@code farms.NAME.reals[i]}): a DFP agent weighs
 * each real per bind ID (draft-eck-dfp-01 §5.2, the Host Preference Field's Bind ID), so one physical
 * server can carry a different weight for each of the virtual servers it serves (IOS SLB "Bind ID").
 * IOS gives the bind ID per server farm ({@code bindid}, {@code dfp.bind-ids}); this key overrides the
 * farm's for one real. Declared by the engine itself, accepted on every real.
 */
public final class DfpBindId {

    /** 0..65535: the Host Preference Field's bind ID is 16 bits. */
    public static final RealKey<Integer> KEY = RealKey.of(Key.integer("bind-id", 0, 65535)
            .byDefault("its farm's, from `dfp.bind-ids`")
            .note("The DFP bind ID whose weight this real takes (overrides `dfp.bind-ids` of its farm)."),
            "the DFP bind ID whose weight this real takes (overrides dfp.bind-ids of its farm)", Integer.class,
            real -> real.integer("bind-id"), String::valueOf);

    private DfpBindId() {
    }
}
