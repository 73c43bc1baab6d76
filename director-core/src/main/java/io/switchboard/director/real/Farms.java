package io.switchboard.director.real;

import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.spi.FarmViews;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every farm of a director by name, with backups resolved and pending slots assigned. A plug-in sees
 * them as {@link FarmViews}.
 */
public final class Farms implements FarmViews {

    private final Map<String, ServerFarm> byName;

    public Farms(Map<String, FarmConfig> configs) {
        Map<String, ServerFarm> farms = new LinkedHashMap<>();
        int slot = 0;
        for (FarmConfig config : configs.values()) {
            farms.put(config.name(), new ServerFarm(config, slot));
            slot += config.reals().size();
        }
        for (FarmConfig config : configs.values()) {
            config.backup().ifPresent(b -> farms.get(config.name()).backup(farms.get(b)));
        }
        this.byName = Collections.unmodifiableMap(farms);
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

    /** Reports every real's administrative changes, weights and failures to {@code listener}. */
    public void stateListener(RealStateListener listener) {
        for (ServerFarm farm : byName.values()) {
            farm.reals().forEach(real -> real.stateListener(listener));
        }
    }

    public void tick(long nowNanos) {
        for (ServerFarm farm : byName.values()) {
            farm.tick(nowNanos);
        }
    }
}
