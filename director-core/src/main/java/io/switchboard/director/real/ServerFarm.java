package io.switchboard.director.real;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.predictor.Predictor;
import io.switchboard.director.predictor.PrefixTable;
import io.switchboard.director.spi.FarmView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * A server farm: its reals, the predictor over them, its route map and an optional backup farm. A
 * plug-in sees it as a {@link FarmView}.
 *
 * <p>A reload changes a farm in place ({@link #reconfigure}), so that whatever holds the farm (a
 * virtual server's selector) follows. What the packet path reads — the reals, the predictor, the
 * route map — are immutable snapshots behind volatile fields, replaced whole (copy on write) under
 * the farm's lock; a pick reads one volatile. A real removed by a reload stays in the farm, taking no
 * new work, while it drains ({@link #leaving}); it leaves with {@link #leave}.
 */
public final class ServerFarm implements FarmView {

    private final String name;
    private volatile PredictorKind predictorKind;
    private volatile Predictor predictor;
    private volatile List<RealServer> reals;
    private volatile Map<String, RealServer> realsById;
    /** Reals a reload removed that still drain, by id (guarded by {@code this}). */
    private final Map<String, RealServer> leaving = new LinkedHashMap<>();
    private volatile PrefixTable<RealServer> routeMap;
    private volatile ServerFarm backup;

    /**
     * @param firstSlot the pending-table slot of this farm's first real; the others follow
     */
    public ServerFarm(FarmConfig config, int firstSlot) {
        this(config, new IntSupplier() {
            private int next = firstSlot;

            @Override
            public int getAsInt() {
                return next++;
            }
        });
    }

    /** @param slots hands out the pending-table slot of each new real: unique among the director's reals */
    ServerFarm(FarmConfig config, IntSupplier slots) {
        this.name = config.name();
        this.reals = List.of();
        this.realsById = Map.of();
        reconfigure(config, slots);
    }

    public String name() {
        return name;
    }

    public PredictorKind predictorKind() {
        return predictorKind;
    }

    /** The farm's reals in configuration order, then those that drain to leave it. */
    public List<RealServer> reals() {
        return reals;
    }

    /** The real with id {@code address:port}, or null. */
    public RealServer real(String id) {
        return realsById.get(id);
    }

    /**
     * The route-map predictor's prefixes and their reals (empty for other predictors), which the
     * plug-in looks up ({@link FarmView#routeMap}); the predictor balances the work it does not route.
     */
    public PrefixTable<RealServer> routeMap() {
        return routeMap;
    }

    public ServerFarm backup() {
        return backup;
    }

    public void backup(ServerFarm backup) {
        this.backup = backup;
    }

    /** A real of this farm claimed for new work, or null if none may take it. */
    public RealServer pick(long keyHash) {
        return predictor.pick(keyHash);
    }

    /** Advances the reals' retry timers. */
    public void tick(long nowNanos) {
        for (RealServer real : reals) {
            real.tick(nowNanos);
        }
    }

    /**
     * Takes {@code config}'s settings and reals: a real it names that the farm has is reconfigured
     * (its bindings, state and counters stay), a new one is made with a new slot, and the reals take
     * the file's order, which round robin follows. A real the farm has that {@code config} does not
     * name is kept until it is removed ({@link #leaving}): removals come last in a reload.
     *
     * @return the reals made
     */
    synchronized List<RealServer> reconfigure(FarmConfig config, IntSupplier slots) {
        List<RealServer> made = new ArrayList<>();
        Map<String, RealServer> byId = new LinkedHashMap<>();
        for (RealConfig realConfig : config.reals()) {
            String id = realConfig.endpoint().toString();
            RealServer real = realsById.get(id);
            if (real == null) {
                real = new RealServer(name, realConfig, config.failure(), slots.getAsInt());
                real.onCandidacyChange(this::rebuildPredictor);
                made.add(real);
            } else {
                real.reconfigure(realConfig, config.failure());
                if (leaving.remove(id) != null) {
                    // Named again while it drained to leave: it stays, as the file now says.
                    real.configureWeight(realConfig.weight());
                    real.configureMaxConns(realConfig.maxconns().orElse(Integer.MAX_VALUE));
                    real.applyAdmin(realConfig.inService());
                }
            }
            real.slowStart(config.slowStart().orElse(java.time.Duration.ZERO));
            byId.put(id, real);
        }
        realsById.forEach(byId::putIfAbsent); // not named: kept until the reload's removals
        Map<Subnet, RealServer> routes = new LinkedHashMap<>();
        config.routeMap().forEach((prefix, real) -> routes.put(prefix, byId.get(real.toString())));
        publish(byId);
        this.routeMap = PrefixTable.of(routes);
        if (config.predictor() != predictorKind) {
            this.predictor = Predictor.create(config.predictor()); // rebuilt just below
            this.predictorKind = config.predictor();
        }
        rebuildPredictor();
        return made;
    }

    /** Marks a real that a reload removed: it drains to leave the farm. False when it is not the farm's. */
    synchronized boolean leaving(RealServer real) {
        if (realsById.get(real.id()) != real) {
            return false;
        }
        leaving.put(real.id(), real);
        return true;
    }

    /** Whether {@code real} drains to leave the farm. */
    public synchronized boolean isLeaving(RealServer real) {
        return leaving.get(real.id()) == real;
    }

    /** Whether nothing is left in the farm. */
    public boolean isEmpty() {
        return reals.isEmpty();
    }

    /** The real leaves the farm; false when it was not leaving (a reload named it again). */
    synchronized boolean leave(RealServer real) {
        if (leaving.remove(real.id()) != real) {
            return false;
        }
        Map<String, RealServer> byId = new LinkedHashMap<>(realsById);
        byId.remove(real.id());
        publish(byId);
        rebuildPredictor();
        return true;
    }

    /** The reals in order, those leaving last (they take no new work, so the order cannot matter to them). */
    private void publish(Map<String, RealServer> byId) {
        List<RealServer> ordered = new ArrayList<>();
        byId.values().stream().filter(r -> !leaving.containsKey(r.id())).forEach(ordered::add);
        byId.values().stream().filter(r -> leaving.containsKey(r.id())).forEach(ordered::add);
        this.realsById = Collections.unmodifiableMap(byId);
        this.reals = List.copyOf(ordered);
    }

    private synchronized void rebuildPredictor() {
        Predictor p = predictor;
        if (p != null) {
            p.rebuild(reals);
        }
    }
}
