package io.switchboard.director;

import io.switchboard.director.spi.Decision;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;

/**
 * Steps 4 and 5 of the packet path for one virtual server: the sticky lookup, and when it finds no
 * live binding, the farm's predictor (then the backup farms') with the new binding written back.
 * Pure engine: no sockets, so the offline what-if runs and the benchmarks use it as it is.
 */
public final class RealSelector {

    private final Farms farms;
    private final ServerFarm farm;
    private final StickyTable sticky;
    private final boolean grouped;
    private volatile java.util.List<ServerFarm> chain;
    /** Selectors of other farms over the same sticky table ({@link #inFarm}), made on first use. */
    private final java.util.concurrent.ConcurrentHashMap<String, RealSelector> otherFarms =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * One {@link Selection} per real and reason, by the real's slot (dense, one per real ever added),
     * made on first use: a request's selection then allocates nothing. Grown copy-on-write; a race
     * between two event loops only makes a selection twice (records are safely published).
     */
    private volatile Selection[] selections = new Selection[0];

    /** @param sticky null when the virtual server keeps no bindings */
    public RealSelector(Farms farms, ServerFarm farm, StickyTable sticky) {
        this(farms, farm, sticky, false);
    }

    /**
     * @param sticky  null when the virtual server keeps no bindings
     * @param grouped the table is a sticky group's, shared with virtual servers of other farms: a
     *                binding to a real of a farm outside this one's backup chain means the real of
     *                this farm (or its backups) with the same IP address
     */
    public RealSelector(Farms farms, ServerFarm farm, StickyTable sticky, boolean grouped) {
        this.farms = farms;
        this.farm = farm;
        this.sticky = sticky;
        this.grouped = grouped;
    }

    /** The real a binding names, translated into this farm's chain for a sticky group; null if none. */
    public RealServer resolve(StickyBinding binding) {
        RealServer real = farms.real(binding.farm(), binding.real());
        if (!grouped || real == null || inChain(real.farm())) {
            return real;
        }
        java.net.InetAddress address = real.address().getAddress();
        for (ServerFarm f : chain()) {
            for (RealServer candidate : f.reals()) {
                if (candidate.address().getAddress().equals(address)) {
                    return candidate;
                }
            }
        }
        return null;
    }

    private boolean inChain(String farmName) {
        for (ServerFarm f : chain()) {
            if (f.name().equals(farmName)) {
                return true;
            }
        }
        return false;
    }

    /** This farm and its backups, each once (a chain built outside the loader may loop). */
    private java.util.List<ServerFarm> chain() {
        if (chain != null) {
            return chain;
        }
        java.util.List<ServerFarm> chain = new java.util.ArrayList<>();
        for (ServerFarm f = farm; f != null && !chain.contains(f); f = f.backup()) {
            chain.add(f);
        }
        this.chain = java.util.List.copyOf(chain);
        return chain;
    }

    /** The farm's pick, skipping excluded reals (each pick moves the predictor on, so it ends). */
    private static RealServer pick(ServerFarm farm, StickyKey key, java.util.Set<RealServer> excluded) {
        // Weighted round robin gives a real as many consecutive turns as its weight (IOS order): an
        // excluded real may come up that many times in a row before another real's turn.
        // (Summed without a stream: every new key's selection comes here, almost always with none excluded.)
        int limit = 1;
        if (!excluded.isEmpty()) {
            for (RealServer real : excluded) {
                limit += real.weight();
            }
        }
        for (int tries = 0; tries < limit; tries++) {
            RealServer real = farm.pick(key.hash() + tries);
            if (real == null || !excluded.contains(real)) {
                return real;
            }
            real.releaseClaim();
        }
        return null;
    }

    /**
     * The selection of a request a plug-in pinned to the real holding its session
     * ({@code Decision.Placement.Pinned}): that real whatever its state (FAILED, OUTOFSERVICE, ...: the
     * session lives there and nowhere else, so no other real could answer); null when the binding
     * names no configured real. The live upstream and offline what-if both decide it here.
     */
    public Selection pinned(StickyBinding binding) {
        RealServer holder = farms.real(binding.farm(), binding.real());
        return holder == null ? null : selection(holder, Selection.Reason.STICKY);
    }

    /**
     * Where a request goes after its real refused it for lack of resources ({@code RETRY_ELSEWHERE}):
     * the real the plug-in routes it to ({@code routed}, e.g. a GTP APN map's), if that real serves
     * its bound clients; else, when the plug-in routes it nowhere, the selection for its key now.
     * Null when it cannot go anywhere. The live upstream and offline what-if both decide it here.
     */
    public Selection afterRefusal(StickyBinding routed, StickyKey key, long nowNanos) {
        if (routed == null) {
            return select(key, nowNanos);
        }
        RealServer holder = farms.real(routed.farm(), routed.real());
        return holder == null || !holder.servesBoundClients() ? null : selection(holder, Selection.Reason.STICKY);
    }

    /**
     * Where a request goes by the placement its plug-in decided: a pinned real ({@link #pinned}),
     * another farm's selection for its own key ({@link #inFarm}), else this farm's for {@code key}.
     * Null when no real may take it (or a pinned one is not configured). The live lanes and what-if
     * decide it here alike.
     */
    public Selection select(Decision.Placement placement, StickyKey key, long nowNanos) {
        if (placement instanceof Decision.Placement.Pinned pinned) {
            return pinned(pinned.binding());
        }
        return unpinned(placement, key, nowNanos);
    }

    /**
     * Where a request goes after its real refused it for lack of resources, by its placement: a
     * pinned real only while it serves ({@link #afterRefusal(StickyBinding, StickyKey, long)}), else
     * as {@link #select(Decision.Placement, StickyKey, long)} now.
     */
    public Selection afterRefusal(Decision.Placement placement, StickyKey key, long nowNanos) {
        if (placement instanceof Decision.Placement.Pinned pinned) {
            return afterRefusal(pinned.binding(), key, nowNanos);
        }
        return unpinned(placement, key, nowNanos);
    }

    /** Another farm's selection for its own key, or this farm's for {@code key}. */
    private Selection unpinned(Decision.Placement placement, StickyKey key, long nowNanos) {
        if (placement instanceof Decision.Placement.InFarm farm) {
            RealSelector other = inFarm(farm.farm());
            return other == null ? null : other.select(farm.key(), nowNanos);
        }
        return select(key, nowNanos);
    }

    /**
     * The selector of another farm over this one's sticky table, for a request a plug-in places in
     * that farm (a GTP APN map's); this selector for its own farm; null when no such farm exists.
     */
    public RealSelector inFarm(String name) {
        if (name.equals(farm.name())) {
            return this;
        }
        ServerFarm other = farms.farm(name);
        if (other == null) {
            return null;
        }
        RealSelector selector = otherFarms.get(name);
        // A farm a reload removed and added again is another farm: the selector follows it.
        if (selector == null || selector.farm() != other) {
            selector = new RealSelector(farms, other, sticky);
            otherFarms.put(name, selector);
        }
        return selector;
    }

    public ServerFarm farm() {
        return farm;
    }

    private Selection selection(RealServer real, Selection.Reason reason) {
        int index = real.slot() * REASONS + reason.ordinal();
        Selection[] cache = selections;
        if (index >= 0 && index < cache.length) {
            Selection s = cache[index];
            if (s != null && s.real() == real) {
                return s;
            }
        }
        Selection s = new Selection(real, reason);
        if (index >= 0 && index < MAX_CACHED) {
            Selection[] grown = index < cache.length ? cache.clone()
                    : java.util.Arrays.copyOf(cache, Math.min(MAX_CACHED, Math.max(index + 1, 2 * cache.length)));
            grown[index] = s;
            selections = grown;
        }
        return s;
    }

    private static final int REASONS = Selection.Reason.values().length;
    /** Beyond this many reals ever added (a director reloaded thousands of times), selections are made per request. */
    private static final int MAX_CACHED = 1 << 16;

    public StickyTable sticky() {
        return sticky;
    }

    /**
     * @param key the request's sticky key; hashed for the consistent-hash predictor even when the
     *            virtual server keeps no bindings
     * @return the chosen real, already claimed for new work where it was newly chosen; null when no
     *         real of the farm or its backups may take the request
     */
    public Selection select(StickyKey key, long nowNanos) {
        return select(key, nowNanos, java.util.Set.of());
    }

    /**
     * As {@link #select(StickyKey, long)}, never choosing a real of {@code excluded}: a connection
     * that one real refused is reassigned to another (IOS {@code reassign}).
     */
    public Selection select(StickyKey key, long nowNanos, java.util.Set<RealServer> excluded) {
        StickyBinding stale = null;
        if (sticky != null) {
            StickyBinding binding = sticky.lookup(key, nowNanos);
            if (binding != null) {
                RealServer real = resolve(binding);
                if (real != null && real.servesBoundClients() && !excluded.contains(real)) {
                    return selection(real, Selection.Reason.STICKY);
                }
                stale = binding;
            }
        }
        Selection.Reason reason = stale != null ? Selection.Reason.REASSIGNED : Selection.Reason.PREDICTOR;
        RealServer chosen = pick(farm, key, excluded);
        // Each farm of the backup chain at most once: a chain may loop (the loader refuses cycles,
        // but farms are also built by tests and tools).
        // (The set only when there is a backup to try: a new binding of a farm without one allocates none.)
        if (chosen == null && farm.backup() != null) {
            java.util.Set<ServerFarm> tried = new java.util.HashSet<>();
            tried.add(farm);
            for (ServerFarm f = farm.backup(); chosen == null && f != null && tried.add(f); f = f.backup()) {
                chosen = pick(f, key, excluded);
                reason = Selection.Reason.BACKUP;
            }
        }
        if (chosen == null || sticky == null) {
            return chosen == null ? null : selection(chosen, reason);
        }
        StickyBinding mine = chosen.binding();
        StickyBinding holding = stale != null
                ? sticky.rebind(key, stale, mine, nowNanos)
                : sticky.bindIfAbsent(key, mine, nowNanos);
        if (holding.equals(mine)) {
            chosen.clientBound(); // toward its maxclients, until the tables are counted again
            return selection(chosen, reason);
        }
        // Another event loop or node bound this key first: follow its choice so all agree.
        RealServer winner = resolve(holding);
        if (winner != null && winner != chosen && winner.servesBoundClients()) {
            chosen.releaseClaim();
            return selection(winner, Selection.Reason.STICKY);
        }
        return selection(chosen, reason);
    }
}
