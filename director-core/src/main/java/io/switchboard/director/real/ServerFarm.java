package io.switchboard.director.real;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.predictor.Predictor;
import io.switchboard.director.predictor.PrefixTable;
import io.switchboard.director.spi.FarmView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server farm: its reals, the predictor over them, its route map and an optional backup farm. A
 * plug-in sees it as a {@link FarmView}.
 */
public final class ServerFarm implements FarmView {

    private final String name;
    private final PredictorKind predictorKind;
    private final Predictor predictor;
    private final List<RealServer> reals;
    private final Map<String, RealServer> realsById = new LinkedHashMap<>();
    private final PrefixTable<RealServer> routeMap;
    private volatile ServerFarm backup;

    /**
     * @param firstSlot the pending-table slot of this farm's first real; the others follow
     */
    public ServerFarm(FarmConfig config, int firstSlot) {
        this.name = config.name();
        this.predictorKind = config.predictor();
        this.predictor = Predictor.create(config.predictor());
        List<RealServer> list = new ArrayList<>();
        int slot = firstSlot;
        for (var realConfig : config.reals()) {
            RealServer real = new RealServer(name, realConfig, config.failure(), slot++);
            real.onCandidacyChange(this::rebuildPredictor);
            config.slowStart().ifPresent(real::slowStart);
            list.add(real);
            realsById.put(real.id(), real);
        }
        this.reals = Collections.unmodifiableList(list);
        Map<Subnet, RealServer> routes = new LinkedHashMap<>();
        config.routeMap().forEach((prefix, real) -> routes.put(prefix, realsById.get(real.toString())));
        this.routeMap = PrefixTable.of(routes);
        rebuildPredictor();
    }

    public String name() {
        return name;
    }

    public PredictorKind predictorKind() {
        return predictorKind;
    }

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

    private void rebuildPredictor() {
        predictor.rebuild(reals);
    }
}
