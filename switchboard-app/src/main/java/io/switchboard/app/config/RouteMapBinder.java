package io.switchboard.app.config;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds a farm's {@code route-map} (predictor {@code route-map}: a list of {@code { prefix, real }},
 * IPv4 prefixes matched against the Framed-IP-Address and IPv6 ones against the Framed-IPv6-Prefix,
 * each real one of the farm's). All problems go
 * to the error list given at construction.
 */
final class RouteMapBinder {

    private final List<ConfigError> errors;

    RouteMapBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    Map<Subnet, Endpoint> bind(Section s, Optional<PredictorKind> predictor, List<RealConfig> reals) {
        Map<Subnet, Endpoint> routes = new LinkedHashMap<>();
        boolean routeMapPredictor = predictor.isPresent() && predictor.get() == PredictorKind.ROUTE_MAP;
        boolean predictorUnreadable = s.has("predictor") && predictor.isEmpty();
        if (!s.has("route-map")) {
            if (routeMapPredictor) {
                error(s.pathOf("route-map"), "required with predictor: route-map (a list of { prefix, real })");
            }
            return routes;
        }
        if (!routeMapPredictor && !predictorUnreadable) {
            error(s.pathOf("route-map"), "only with predictor: route-map (this farm's predictor is "
                    + predictor.orElse(PredictorKind.ROUNDROBIN).configName() + ")");
        }
        s.list("route-map").ifPresent(items -> {
            if (items.isEmpty()) {
                error(s.pathOf("route-map"), "must list at least one { prefix, real }");
            }
            Map<Subnet, Integer> seen = new HashMap<>();
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf("route-map"), i);
                Optional<Section> item = s.item("route-map", items, i);
                if (item.isEmpty()) {
                    continue;
                }
                Optional<Subnet> prefix = routePrefix(item.get());
                Optional<Endpoint> real = routeReal(item.get(), reals);
                if (prefix.isPresent()) {
                    Integer first = seen.putIfAbsent(prefix.get(), i);
                    if (first != null) {
                        error(item.get().pathOf("prefix"), "duplicate of route-map[" + first + "] (" + prefix.get() + ")");
                        continue;
                    }
                }
                if (prefix.isPresent() && real.isPresent()) {
                    routes.put(prefix.get(), real.get());
                }
            }
        });
        return routeMapPredictor ? routes : new LinkedHashMap<>();
    }

    private Optional<Subnet> routePrefix(Section r) {
        if (!r.require("prefix", "required")) {
            return Optional.empty();
        }
        return r.string("prefix").flatMap(text -> {
            try {
                Subnet prefix = AddressLiterals.parseSubnet(text);
                if (AddressLiterals.hasHostBits(text)) {
                    error(r.pathOf("prefix"), "'" + text + "' has bits set below the prefix (the network is "
                            + prefix + ")");
                    return Optional.empty();
                }
                return Optional.of(prefix);
            } catch (IllegalArgumentException e) {
                error(r.pathOf("prefix"), e.getMessage());
                return Optional.empty();
            }
        });
    }

    /** The route's real: {@code ADDRESS:PORT} of a real of the farm (when {@code reals} is known). */
    private Optional<Endpoint> routeReal(Section r, List<RealConfig> reals) {
        if (!r.require("real", "required: ADDRESS:PORT of a real of this farm")) {
            return Optional.empty();
        }
        return r.endpoint("real").filter(real -> {
            if (reals != null && reals.stream().noneMatch(c -> c.endpoint().equals(real))) {
                error(r.pathOf("real"), "'" + real + "' is not a real of this farm (reals: "
                        + ConfigBinder.names(reals, c -> c.endpoint().toString()) + ")");
                return false;
            }
            return true;
        });
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
