package io.switchboard.app.admin;

import io.switchboard.director.Director;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.SessionListing;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The admin API behind {@code switchboard show} and {@code clear} that IOS operators type as {@code show ip slb
 * sticky | probe | stats} and {@code clear ip slb sticky | sessions | counters}:
 *
 * <ul>
 *   <li>{@code GET /api/v1/sticky[?kind=K&limit=N]}: the bindings this node sees, each table once (a sticky
 *       group's virtual servers share one);</li>
 *   <li>{@code DELETE /api/v1/sticky?kind=K}: every binding of that kind, in every table that keeps it;</li>
 *   <li>{@code DELETE /api/v1/sessions[?real=address:port]}: the plug-ins' sessions (of one real);</li>
 *   <li>{@code GET /api/v1/probes}: each probe, the farms using it and each real's verdict;</li>
 *   <li>{@code GET /api/v1/stats} and {@code POST /api/v1/counters/clear} ({@link CounterBaselines}).</li>
 * </ul>
 *
 * Walking a table is no event loop's work: every handler here is blocking.
 */
final class ShowRoutes {

    /** What a listing returns when the caller gives no limit: enough to read, never a million lines. */
    static final int DEFAULT_LIMIT = 1000;

    private final Director director;
    private final Supplier<SwitchboardConfig> config;
    private final CounterBaselines baselines;

    private ShowRoutes(Director director, Supplier<SwitchboardConfig> config, CounterBaselines baselines) {
        this.director = director;
        this.config = config;
        this.baselines = baselines;
    }

    static void mount(Router router, Director director, Supplier<SwitchboardConfig> config,
            CounterBaselines baselines) {
        ShowRoutes routes = new ShowRoutes(director, config, baselines);
        router.get("/api/v1/sticky").blockingHandler(routes::sticky);
        router.delete("/api/v1/sticky").blockingHandler(routes::clearSticky);
        router.delete("/api/v1/sessions").blockingHandler(routes::clearSessions);
        router.get("/api/v1/probes").blockingHandler(ctx -> AdminServer.json(ctx, 200, routes.probes()));
        router.get("/api/v1/stats").blockingHandler(ctx -> AdminServer.json(ctx, 200, routes.stats()));
        router.post("/api/v1/counters/clear").blockingHandler(ctx -> {
            baselines.clear(director);
            AdminServer.json(ctx, 200, new JsonObject().put("cleared", baselines.clearedAt().toString()));
        });
    }

    /** The sticky tables, each once, with the virtual servers that share it; only those keeping {@code kind}. */
    private Map<StickyTable, List<VirtualServer>> tables(Optional<StickyKind> kind) {
        Map<StickyTable, List<VirtualServer>> tables = new IdentityHashMap<>();
        director.virtualServers().values().stream()
                .filter(vs -> vs.selector().sticky() != null)
                .filter(vs -> kind.isEmpty() || AdminServer.keys(vs, kind.get()))
                .sorted(java.util.Comparator.comparing(VirtualServer::name))
                .forEach(vs -> tables.computeIfAbsent(vs.selector().sticky(), t -> new ArrayList<>()).add(vs));
        return tables;
    }

    /** The {@code kind} query parameter, empty when absent; null with the error answered when it names no kind. */
    private static Optional<StickyKind> kind(RoutingContext ctx) {
        String text = ctx.queryParams().get("kind");
        if (text == null) {
            return Optional.empty();
        }
        StickyKind kind = AdminServer.stickyKind(ctx, text);
        return kind == null ? null : Optional.of(kind);
    }

    private void sticky(RoutingContext ctx) {
        Optional<StickyKind> kind = kind(ctx);
        if (kind == null) {
            return;
        }
        int limit;
        try {
            String text = ctx.queryParams().get("limit");
            limit = text == null ? DEFAULT_LIMIT : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            AdminServer.error(ctx, 400, "limit must be a number");
            return;
        }
        long now = System.nanoTime();
        JsonArray entries = new JsonArray();
        long[] total = {0};
        tables(kind).forEach((table, servers) -> {
            JsonArray names = new JsonArray(servers.stream().map(VirtualServer::name).toList());
            table.forEachLive(now, (key, binding, idle) -> {
                if (kind.isPresent() && key.kind() != kind.get()) {
                    return;
                }
                total[0]++;
                if (entries.size() < limit) {
                    entries.add(new JsonObject().put("vservers", names).put("table", table.name())
                            .put("kind", key.kind().configName()).put("key", key.toString())
                            .put("farm", binding.farm()).put("real", binding.real())
                            .put("idleSeconds", TimeUnit.NANOSECONDS.toSeconds(idle)));
                }
            });
        });
        AdminServer.json(ctx, 200, new JsonObject().put("total", total[0]).put("listed", entries.size())
                .put("entries", entries));
    }

    private void clearSticky(RoutingContext ctx) {
        Optional<StickyKind> kind = kind(ctx);
        if (kind == null) {
            return;
        }
        if (kind.isEmpty()) {
            AdminServer.error(ctx, 400, "clear sticky needs ?kind= (one of " + AdminServer.kindNames() + ")");
            return;
        }
        long now = System.nanoTime();
        int removed = 0;
        for (StickyTable table : tables(kind).keySet()) {
            List<StickyKey> keys = new ArrayList<>();
            table.forEachLive(now, (key, binding, idle) -> {
                if (key.kind() == kind.get()) {
                    keys.add(key);
                }
            });
            for (StickyKey key : keys) {
                removed += table.remove(key) ? 1 : 0;
            }
        }
        AdminServer.json(ctx, 200, new JsonObject().put("kind", kind.get().configName()).put("removed", removed));
    }

    private void clearSessions(RoutingContext ctx) {
        String real = ctx.queryParams().get("real");
        int cleared = 0;
        Set<SessionListing> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (VirtualServer vs : director.virtualServers().values()) {
            if (vs.plugin() instanceof SessionListing listing && seen.add(listing)) {
                cleared += listing.clear(real);
            }
        }
        AdminServer.json(ctx, 200, new JsonObject().put("cleared", cleared).put("real", real));
    }

    /** Each probe as configured, the farms that use it and each of their reals' verdicts now. */
    private JsonArray probes() {
        SwitchboardConfig running = config.get();
        JsonArray out = new JsonArray();
        for (ProbeConfig probe : running.probes().values()) {
            JsonArray reals = new JsonArray();
            JsonArray farms = new JsonArray();
            for (FarmConfig farm : running.farms().values()) {
                if (!farm.probes().contains(probe.name())) {
                    continue;
                }
                farms.add(farm.name());
                var live = director.farms().farm(farm.name());
                if (live != null) {
                    live.reals().forEach(r -> reals.add(new JsonObject().put("farm", live.name()).put("real", r.id())
                            .put("state", r.state().name()).put("probesFailing", r.probesFailing())));
                }
            }
            out.add(new JsonObject().put("name", probe.name()).put("type", probe.check().type())
                    .put("interval", probe.interval().toString()).put("timeout", probe.timeout().toString())
                    .put("failures", probe.failures()).put("farms", farms).put("reals", reals));
        }
        return out;
    }

    /** The node's totals since the last {@code clear counters}, as IOS {@code show ip slb stats} sums them. */
    private JsonObject stats() {
        long received = 0, forwarded = 0, relayed = 0, expired = 0, failures = 0;
        for (VirtualServer vs : director.virtualServers().values()) {
            CounterBaselines.Counts c = baselines.of(vs);
            received += c.received();
            forwarded += c.forwarded();
            relayed += c.relayed();
            expired += c.expired();
        }
        for (var farm : director.farms().all()) {
            for (RealServer r : farm.reals()) {
                failures += baselines.of(r).failures();
            }
        }
        return new JsonObject().put("received", received).put("forwarded", forwarded).put("relayed", relayed)
                .put("expired", expired).put("realFailures", failures)
                .put("countersCleared", baselines.clearedAt() == null ? null : baselines.clearedAt().toString());
    }
}
