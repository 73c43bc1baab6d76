package io.switchboard.director.radius;

import io.switchboard.director.Ticker;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.shared.StickyCodecs;
import io.switchboard.director.spi.StickyBindings;
import io.switchboard.director.sticky.StickyKey;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Where correlated VSA values are held, by subscriber. The virtual servers of one sticky group share
 * one store on a node (found through their shared sticky table), so what the auth virtual server saw
 * is injected by the acct virtual server; the store is a shared table named after the group, so in a
 * cluster an Accounting-Start that reaches another node than the subscriber's authentication (the
 * GGSN and the NAS are different clients, which ECMP may spread over different nodes) still gets it.
 */
final class VsaStore {

    private static final Map<StickyBindings, HeldValues<StickyKey>> BY_TABLE =
            Collections.synchronizedMap(new WeakHashMap<>());

    private VsaStore() {
    }

    /**
     * The store of the virtual servers sharing {@code sticky} (one per sticky group and node), or one
     * of the virtual server's own without a sticky table.
     */
    static HeldValues<StickyKey> of(StickyBindings sticky, SharedTables tables, String groupOrVirtualServer, Ticker ticker) {
        if (sticky == null) {
            return open(tables, groupOrVirtualServer, ticker);
        }
        return BY_TABLE.computeIfAbsent(sticky, t -> open(tables, groupOrVirtualServer, ticker));
    }

    private static HeldValues<StickyKey> open(SharedTables tables, String name, Ticker ticker) {
        return HeldValues.open(tables, "radius/vsa/" + name, StickyCodecs.KEYS, ticker);
    }
}
