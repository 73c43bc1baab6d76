package io.switchboard.director.real;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.spi.FarmViews;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Every farm of a director by name, with backups resolved and pending slots assigned. A plug-in sees
 * them as {@link FarmViews}.
 *
 * <p>A reload changes them while packets flow ({@link #reconfigure}, {@link #leaving}, {@link #leave}):
 * the map of farms is an immutable snapshot replaced whole (copy on write), and every change moves
 * {@link #version()} on, so that an engine or plug-in that caches something per real (an engine's
 * reals by address, a RADIUS real's secret) reads it again when the version moved — one volatile read
 * on its path. Slots are handed out in increasing order and never reused: a late answer from a real
 * that left, still keyed by its slot in a pending table, can then never match a request to a real
 * added since; the per-slot arrays an engine keeps grow by the reals ever added, a few ints each.
 */
public final class Farms implements FarmViews {

    /** Told when a real joins a farm (at a reload) or leaves it (its removal ended). */
    public interface Membership {
        Membership NONE = new Membership() {
        };

        default void joined(RealServer real) {
        }

        default void left(RealServer real) {
        }
    }

    private volatile Map<String, ServerFarm> byName = Map.of();
    private volatile long version;
    /** The next real's slot (guarded by {@code this}). */
    private int nextSlot;
    private final IntSupplier slots = () -> nextSlot++;
    private volatile RealStateListener stateListener = RealStateListener.NONE;
    private volatile Membership membership = Membership.NONE;

    public Farms(Map<String, FarmConfig> configs) {
        reconfigure(configs);
    }

    public ServerFarm farm(String name) {
        return byName.get(name);
    }

    /** The real {@code id} of farm {@code farm}, or null. */
    public RealServer real(String farm, String id) {
        ServerFarm f = byName.get(farm);
        return f == null ? null : f.real(id);
    }

    public Collection<ServerFarm> all() {
        return byName.values();
    }

    @Override
    public long version() {
        return version;
    }

    /** Reports every real's administrative changes, weights and failures to {@code listener}, reals added later too. */
    public synchronized void stateListener(RealStateListener listener) {
        this.stateListener = listener;
        for (ServerFarm farm : byName.values()) {
            farm.reals().forEach(real -> real.stateListener(listener));
        }
    }

    /** Tells {@code membership} of the reals that join and leave from now on. */
    public void membership(Membership membership) {
        this.membership = membership;
    }

    /**
     * Takes the farms of a configuration: a farm it names that exists is changed in place
     * ({@link ServerFarm#reconfigure}), a new one is added, and backups are resolved again. Farms and
     * reals it does not name stay until they are removed ({@link #leaving}).
     *
     * @return the reals added
     */
    public synchronized List<RealServer> reconfigure(Map<String, FarmConfig> configs) {
        Map<String, ServerFarm> farms = new LinkedHashMap<>(byName);
        List<RealServer> added = new ArrayList<>();
        for (FarmConfig config : configs.values()) {
            ServerFarm farm = farms.get(config.name());
            if (farm == null) {
                farm = new ServerFarm(config, slots);
                farms.put(config.name(), farm);
                added.addAll(farm.reals());
            } else {
                added.addAll(farm.reconfigure(config, slots));
            }
        }
        for (FarmConfig config : configs.values()) {
            farms.get(config.name()).backup(config.backup().map(farms::get).orElse(null));
        }
        added.forEach(real -> real.stateListener(stateListener));
        byName = Collections.unmodifiableMap(farms);
        version++;
        added.forEach(membership::joined);
        return added;
    }

    /**
     * A reload removed the real: it stays in its farm, taking no new work, until {@link #leave}.
     * False when it is not a real of its farm.
     */
    public synchronized boolean leaving(RealServer real) {
        ServerFarm farm = byName.get(real.farm());
        return farm != null && farm.leaving(real);
    }

    /**
     * The removed real leaves its farm, and the farm with it when a reload removed the farm and this
     * was its last real. False when it was not leaving (a later reload named it again).
     */
    public synchronized boolean leave(RealServer real, boolean farmRemoved) {
        ServerFarm farm = byName.get(real.farm());
        if (farm == null || !farm.leave(real)) {
            return false;
        }
        if (farmRemoved && farm.isEmpty()) {
            Map<String, ServerFarm> farms = new LinkedHashMap<>(byName);
            farms.remove(farm.name());
            byName = Collections.unmodifiableMap(farms);
        }
        version++;
        real.stateListener(RealStateListener.NONE);
        membership.left(real);
        return true;
    }

    public void tick(long nowNanos) {
        for (ServerFarm farm : byName.values()) {
            farm.tick(nowNanos);
        }
    }
}
