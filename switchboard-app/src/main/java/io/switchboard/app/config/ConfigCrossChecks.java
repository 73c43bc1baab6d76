package io.switchboard.app.config;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.config.VirtualServerConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What spans sections, checked once every section is read: farm and probe references, backup
 * chains (no self-backup, no cycle), predictors against the services whose virtual servers reach the
 * farm (directly, through options or through backups), and listen endpoints shared by two virtual
 * servers. All problems go to the error list given at construction, at the path that holds them.
 */
final class ConfigCrossChecks {

    /** A farm as far as it could be read. */
    record FarmDraft(String name, Optional<PredictorKind> predictor, Optional<String> backup, FarmConfig config) {
    }

    /** A virtual server as far as it could be read. */
    record ServerDraft(String name, Optional<Endpoint> listen, Optional<ServiceSpec> service,
            Optional<String> farm, Optional<VirtualServerConfig> config) {
    }

    private final List<ConfigError> errors;
    private final Map<String, FarmDraft> farms;
    /** Every farm name in the document, even of farms too broken to read. */
    private final Set<String> farmNames;
    private final Set<String> probeNames;
    private final Map<String, List<String>> farmProbeRefs;
    private final Map<String, ServerDraft> servers;

    ConfigCrossChecks(List<ConfigError> errors, Map<String, FarmDraft> farms, Set<String> farmNames,
            Set<String> probeNames, Map<String, List<String>> farmProbeRefs, Map<String, ServerDraft> servers) {
        this.errors = errors;
        this.farms = farms;
        this.farmNames = farmNames;
        this.probeNames = probeNames;
        this.farmProbeRefs = farmProbeRefs;
        this.servers = servers;
    }

    void check() {
        checkFarmReferences();
        checkProbeReferences();
        checkBackups();
        checkPredictors();
        checkListenEndpoints();
    }

    private void checkProbeReferences() {
        farmProbeRefs.forEach((farm, names) -> {
            for (int i = 0; i < names.size(); i++) {
                if (!probeNames.contains(names.get(i))) {
                    error(ConfigPath.index(ConfigBinder.farmPath(farm, "probes"), i), "no probe named '" + names.get(i) + "'");
                }
            }
        });
    }

    private void checkFarmReferences() {
        servers.values().forEach(server -> server.farm().ifPresent(farm -> {
            if (!farmNames.contains(farm)) {
                error(ConfigBinder.serverPath(server.name(), "farm"), "no farm named '" + farm + "'");
            }
        }));
        servers.values().forEach(server -> server.config().ifPresent(c -> {
            for (int i = 0; i < c.clientFarms().size(); i++) {
                String farm = c.clientFarms().get(i).farm();
                if (!farmNames.contains(farm)) {
                    error(ConfigPath.child(ConfigPath.index(ConfigBinder.serverPath(server.name(), "client-farms"), i),
                            "farm"), "no farm named '" + farm + "'");
                }
            }
        }));
        servers.values().forEach(server -> optionFarms(server).forEach((key, farm) -> {
            if (!farmNames.contains(farm)) {
                error(ConfigBinder.serverPath(server.name(), key), "no farm named '" + farm + "'");
            }
        }));
    }

    /** The farms a server's service options send to (GTP APN maps), by the key that names each. */
    private static Map<String, String> optionFarms(ServerDraft server) {
        return server.config().map(c -> c.options().farmReferences()).orElse(Map.of());
    }

    private void checkBackups() {
        for (FarmDraft farm : farms.values()) {
            farm.backup().ifPresent(backup -> {
                if (backup.equals(farm.name())) {
                    error(ConfigBinder.farmPath(farm.name(), "backup"), "must not be the farm itself");
                } else if (!farmNames.contains(backup)) {
                    error(ConfigBinder.farmPath(farm.name(), "backup"), "no farm named '" + backup + "'");
                }
            });
        }
        // Cycles of two or more farms; each reported once, at its first farm in document order.
        Set<String> inReportedCycle = new HashSet<>();
        for (FarmDraft start : farms.values()) {
            if (inReportedCycle.contains(start.name())) {
                continue;
            }
            List<String> chain = new ArrayList<>(List.of(start.name()));
            String next = backupOf(start.name());
            while (next != null && !chain.contains(next)) {
                chain.add(next);
                next = backupOf(next);
            }
            if (next != null && next.equals(start.name()) && chain.size() > 1) {
                inReportedCycle.addAll(chain);
                chain.add(start.name());
                error(ConfigBinder.farmPath(start.name(), "backup"), "backup cycle: " + String.join(" -> ", chain));
            }
        }
    }

    /** The backup of a farm that can be followed: exists, is read, and is not the farm itself. */
    private String backupOf(String farmName) {
        FarmDraft farm = farms.get(farmName);
        if (farm == null || farm.backup().isEmpty() || farm.backup().get().equals(farmName)) {
            return null;
        }
        return farm.backup().get();
    }

    /**
     * Every farm a virtual server can send to (its farm and that farm's backups, in order) must use
     * a predictor the server's service allows. Reported at the farm's predictor, naming the server.
     */
    private void checkPredictors() {
        for (ServerDraft server : servers.values()) {
            if (server.service().isEmpty() || server.farm().isEmpty()) {
                continue;
            }
            ServiceSpec service = server.service().get();
            Set<String> visited = new LinkedHashSet<>();
            List<String> starts = new ArrayList<>(List.of(server.farm().get()));
            starts.addAll(optionFarms(server).values());
            for (String start : starts) {
                for (String farmName = start; farmName != null && visited.add(farmName);
                        farmName = backupOf(farmName)) {
                    FarmDraft farm = farms.get(farmName);
                    if (farm == null || farm.predictor().isEmpty() || service.allows(farm.predictor().get())) {
                        continue;
                    }
                    String how = farmName.equals(server.farm().get()) ? ""
                            : farmName.equals(start) ? " through its options"
                            : " through the backup chain of farm '" + start + "'";
                    error(ConfigBinder.farmPath(farmName, "predictor"), "'" + farm.predictor().get().configName()
                            + "' is not allowed for virtual server '" + server.name() + "'" + how + " (service "
                            + service.name() + " allows: "
                            + ConfigBinder.names(service.allowedPredictors(), PredictorKind::configName) + ")");
                }
            }
        }
    }

    /** Two servers cannot share an address, port and transport, except port 0 (ephemeral). */
    private void checkListenEndpoints() {
        Map<List<Object>, String> used = new HashMap<>();
        for (ServerDraft server : servers.values()) {
            if (server.listen().isEmpty() || server.service().isEmpty() || server.listen().get().port() == 0) {
                continue;
            }
            String transport = server.service().get().transport().configName();
            String first = used.putIfAbsent(List.of(server.listen().get(), transport), server.name());
            if (first != null) {
                error(ConfigBinder.serverPath(server.name(), "listen"), server.listen().get() + "/" + transport
                        + " is already used by virtual server '" + first + "'");
            }
        }
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
