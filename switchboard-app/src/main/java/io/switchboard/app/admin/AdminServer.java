package io.switchboard.app.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.app.reload.Reloader;
import io.switchboard.pcap.DebugCaptures;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.spi.LoadWeights;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.spi.SessionListing;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * The admin listener: {@code GET /health}, {@code GET /metrics} (Prometheus text) and the REST API
 * under {@code /api/v1}. When a token is configured every API call must present it as
 * {@code Authorization: Bearer TOKEN}; health and metrics stay open for probes and scrapers.
 */
public final class AdminServer extends VerticleBase {

    private final AdminConfig config;
    private final Director director;
    private final PrometheusMeterRegistry registry;
    private final java.util.function.Supplier<JsonObject> cluster;
    private final DebugCaptures captures;
    private final Reloader reloader;
    private final CounterBaselines baselines = new CounterBaselines();
    private HttpServer server;

    /** @param cluster the cluster's state as {@code GET /api/v1/cluster} shows it */
    public AdminServer(AdminConfig config, Director director, PrometheusMeterRegistry registry,
            java.util.function.Supplier<JsonObject> cluster) {
        this(config, director, registry, cluster, null);
    }

    /** @param captures the node's debug captures, or null to serve no capture endpoints */
    public AdminServer(AdminConfig config, Director director, PrometheusMeterRegistry registry,
            java.util.function.Supplier<JsonObject> cluster, DebugCaptures captures) {
        this(config, director, registry, cluster, captures, null);
    }

    /** @param reloader the node's configuration reloads ({@code /api/v1/config}), or null to serve none */
    public AdminServer(AdminConfig config, Director director, PrometheusMeterRegistry registry,
            java.util.function.Supplier<JsonObject> cluster, DebugCaptures captures, Reloader reloader) {
        this.config = config;
        this.director = director;
        this.registry = registry;
        this.cluster = cluster;
        this.captures = captures;
        this.reloader = reloader;
    }

    public InetSocketAddress localAddress() {
        return server == null ? null : new InetSocketAddress(config.listen().address(), server.actualPort());
    }

    @Override
    public Future<?> start() {
        Router router = Router.router(vertx);
        router.get("/health").handler(this::health);
        router.get("/metrics").handler(ctx -> ctx.response()
                .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
                .end(registry.scrape()));
        StatusPage.mount(router);
        router.route("/api/*").handler(new ApiAudit(registry)::handle);
        router.route("/api/*").handler(this::authorize);
        if (reloader != null) {
            ConfigRoutes.mount(router, reloader);
        }
        router.route("/api/*").handler(BodyHandler.create().setBodyLimit(64 * 1024));
        router.get("/api/v1/farms").handler(ctx -> json(ctx, 200, farms()));
        router.get("/api/v1/farms/:farm").handler(ctx -> withFarm(ctx, farm -> json(ctx, 200, farm(farm))));
        router.post("/api/v1/reals/:farm/:real/inservice").handler(ctx -> withReal(ctx, real -> {
            real.putInService();
            json(ctx, 200, real(real));
        }));
        router.post("/api/v1/reals/:farm/:real/outofservice").handler(ctx -> withReal(ctx, real -> {
            real.takeOutOfService();
            json(ctx, 200, real(real));
        }));
        DrainRoutes.mount(router, this, director);
        router.put("/api/v1/reals/:farm/:real/weight").handler(ctx -> withReal(ctx, real -> setWeight(ctx, real)));
        Plugins.installed().loadWeights().ifPresent(weights -> router.put("/api/v1/reals/:farm/:real/load")
                .handler(ctx -> withReal(ctx, real -> setLoad(ctx, real, weights))));
        router.get("/api/v1/vservers").handler(ctx -> json(ctx, 200, vservers()));
        // Reads the cluster's member list: off the event loop.
        router.get("/api/v1/cluster").blockingHandler(ctx -> json(ctx, 200, cluster.get()));
        router.get("/api/v1/sticky/:vserver").handler(ctx -> withSticky(ctx, (table, key) -> {
            StickyBinding b = table.lookup(key, System.nanoTime());
            if (b == null) {
                error(ctx, 404, "no binding for " + key.kind().configName() + " " + key);
            } else {
                json(ctx, 200, new JsonObject().put("key", key.toString()).put("kind", key.kind().configName())
                        .put("farm", b.farm()).put("real", b.real()));
            }
        }));
        router.delete("/api/v1/sticky/:vserver").handler(ctx -> withSticky(ctx, (table, key) -> {
            if (table.remove(key)) {
                ctx.response().setStatusCode(204).end();
            } else {
                error(ctx, 404, "no binding for " + key.kind().configName() + " " + key);
            }
        }));
        router.get("/api/v1/sticky/:kind/:key").handler(this::bindingsOfKey);
        router.delete("/api/v1/sticky/:kind/:key").handler(this::removeKey);
        router.get("/api/v1/sessions").handler(this::sessions);
        ShowRoutes.mount(router, director, () -> reloader == null ? director.config() : reloader.running().config(),
                baselines);
        if (captures != null) {
            // Opening files and waiting for the writer to finish: off the event loop.
            router.get("/api/v1/capture").blockingHandler(ctx -> json(ctx, 200, new JsonArray(captures.status())));
            router.post("/api/v1/capture/:vserver/start").blockingHandler(ctx -> capture(ctx, true));
            router.post("/api/v1/capture/:vserver/stop").blockingHandler(ctx -> capture(ctx, false));
        }
        // admin.tls: HTTPS with the configured PEM chain and key (the token then never crosses the wire in clear).
        HttpServerOptions options = new HttpServerOptions();
        config.tls().ifPresent(tls -> options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                .setCertPath(tls.certificate().toString()).setKeyPath(tls.key().toString())));
        return vertx.createHttpServer(options)
                .requestHandler(router)
                .listen(config.listen().port(), config.listen().address().getHostAddress())
                .onSuccess(s -> server = s);
    }

    /**
     * The key of {@code /api/v1/sticky/{kind}/{key}}, or null with the error answered: {@code kind}
     * any sticky key kind ({@code imsi}, {@code calling-station-id}, {@code framed-ip}, ...).
     */
    private StickyKey pathKey(RoutingContext ctx) {
        StickyKind kind = stickyKind(ctx, ctx.pathParam("kind"));
        if (kind == null) {
            return null;
        }
        try {
            return StickyKey.parse(kind, ctx.pathParam("key"));
        } catch (IllegalArgumentException e) {
            error(ctx, 400, e.getMessage());
            return null;
        }
    }

    /** The sticky key kind named {@code text}, or null with the error answered (400, naming the kinds there are). */
    static StickyKind stickyKind(RoutingContext ctx, String text) {
        java.util.Optional<StickyKind> kind = Plugins.installed().stickyKind(text);
        if (kind.isEmpty()) {
            error(ctx, 400, "kind " + text + " is no sticky key kind (one of " + kindNames() + ")");
            return null;
        }
        return kind.get();
    }

    static java.util.List<String> kindNames() {
        return Plugins.installed().stickyKinds().stream().map(StickyKind::configName).toList();
    }

    /** Whether the service of {@code vs} declares {@code kind} among its sticky keys. */
    static boolean keys(VirtualServer vs, StickyKind kind) {
        return Plugins.installed().service(vs.config().service()).map(s -> s.spec().allows(kind)).orElse(false);
    }

    /** The virtual servers whose service keys by {@code kind} and that keep a sticky table. */
    private java.util.List<VirtualServer> keepingKind(StickyKind kind) {
        return director.virtualServers().values().stream()
                .filter(vs -> vs.selector().sticky() != null && keys(vs, kind))
                .sorted(java.util.Comparator.comparing(VirtualServer::name)).toList();
    }

    /**
     * Where a key is stuck, in every virtual server that keeps its kind (the virtual servers of one
     * sticky group each list the binding they share): {@code [{vserver, kind, key, farm, real}]}
     * (and {@code imsi} for an IMSI, as before), 404 if nowhere.
     */
    private void bindingsOfKey(RoutingContext ctx) {
        StickyKey key = pathKey(ctx);
        if (key == null) {
            return;
        }
        JsonArray found = new JsonArray();
        for (VirtualServer vs : keepingKind(key.kind())) {
            StickyBinding b = vs.selector().sticky().lookup(key, System.nanoTime());
            if (b != null) {
                JsonObject entry = new JsonObject().put("vserver", vs.name()).put("kind", key.kind().configName())
                        .put("key", key.toString());
                if (key.kind().isListedUnderItsName()) {
                    entry.put(key.kind().configName(), key.toString());
                }
                vs.config().sticky().flatMap(c -> c.group()).ifPresent(g -> entry.put("group", g));
                found.add(entry.put("farm", b.farm()).put("real", b.real()));
            }
        }
        if (found.isEmpty()) {
            error(ctx, 404, "no binding for " + key.kind().configName() + " " + key);
        } else {
            json(ctx, 200, found);
        }
    }

    /** Removes a key from every sticky table (or group) that holds it: 204, or 404 if none did. */
    private void removeKey(RoutingContext ctx) {
        StickyKey key = pathKey(ctx);
        if (key == null) {
            return;
        }
        java.util.Set<StickyTable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        boolean removed = false;
        for (VirtualServer vs : keepingKind(key.kind())) {
            StickyTable table = vs.selector().sticky();
            if (seen.add(table)) {
                removed |= table.remove(key);
            }
        }
        if (removed) {
            ctx.response().setStatusCode(204).end();
        } else {
            error(ctx, 404, "no binding for " + key.kind().configName() + " " + key);
        }
    }

    /** Open sessions of the plug-ins that keep them ({@code gtp-inspect}); {@code ?real=address:port} filters. */
    private void sessions(RoutingContext ctx) {
        String real = ctx.queryParams().get("real");
        JsonArray list = new JsonArray();
        for (VirtualServer vs : director.virtualServers().values()) {
            if (vs.plugin() instanceof SessionListing listing) {
                for (SessionListing.Session s : listing.sessions()) {
                    if (real == null || real.equals(s.real())) {
                        list.add(new JsonObject().put("vserver", vs.name()).put("id", s.id()).put("key", s.key())
                                .put("farm", s.farm()).put("real", s.real()).put("detail", s.detail()));
                    }
                }
            }
        }
        json(ctx, 200, list);
    }

    private void authorize(RoutingContext ctx) {
        if (config.token().isEmpty()) {
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("Authorization");
        // Compared in constant time (MessageDigest.isEqual): how long a wrong token takes to refuse
        // tells nothing of how much of it was right.
        byte[] expected = ("Bearer " + config.token().get()).getBytes(StandardCharsets.UTF_8);
        if (header != null && MessageDigest.isEqual(expected, header.getBytes(StandardCharsets.UTF_8))) {
            ctx.next();
        } else {
            ctx.response().putHeader("WWW-Authenticate", "Bearer");
            error(ctx, 401, "missing or wrong bearer token");
        }
    }

    private void health(RoutingContext ctx) {
        JsonObject vs = new JsonObject();
        boolean up = true;
        boolean overloaded = false;
        for (VirtualServer v : director.virtualServers().values()) {
            InetSocketAddress bound = director.localAddress(v.name());
            up &= bound != null;
            boolean shedding = v.admission().overloaded(System.nanoTime());
            overloaded |= shedding;
            vs.put(v.name(), bound == null ? "DOWN" : shedding ? "OVERLOADED" : "UP");
        }
        // A draining node is not down, but must get no new work: 503, so that a balancer or a VRRP
        // track script moves traffic off it while it answers what it has. An overloaded one stays 200
        // (DEGRADED): it still serves its sessions, which live on it, and a 503 would move them all
        // to the other nodes at once, overloading those too (docs/overload.md).
        String status = director.draining() ? "DRAINING" : !up ? "DOWN" : overloaded ? "DEGRADED" : "UP";
        json(ctx, up && !director.draining() ? 200 : 503, new JsonObject().put("status", status)
                .put("virtualServers", vs));
    }

    private JsonArray farms() {
        JsonArray out = new JsonArray();
        director.farms().all().forEach(f -> out.add(farm(f)));
        return out;
    }

    private JsonObject farm(ServerFarm farm) {
        JsonArray reals = new JsonArray();
        farm.reals().forEach(r -> reals.add(real(r)));
        return new JsonObject().put("name", farm.name()).put("predictor", farm.predictorKind().configName())
                .put("backup", farm.backup() == null ? null : farm.backup().name()).put("reals", reals);
    }

    /** A real, its counters since the last {@code clear counters} ({@link CounterBaselines}). */
    JsonObject real(RealServer r) {
        CounterBaselines.RealCounts counts = baselines.of(r);
        return new JsonObject().put("farm", r.farm()).put("real", r.id()).put("state", r.state().name())
                .put("weight", r.weight()).put("staticWeight", r.staticWeight())
                .put("connections", r.connections())
                .put("maxconns", r.maxConns() == Integer.MAX_VALUE ? null : r.maxConns())
                .put("requests", counts.requests()).put("answered", counts.answered())
                .put("unanswered", counts.unanswered())
                .put("failures", counts.failures()).put("consecutiveFailures", r.consecutiveFailures())
                .put("drain", DrainRoutes.drain(r.currentDrain()));
    }

    private JsonArray vservers() {
        JsonArray out = new JsonArray();
        for (VirtualServer v : director.virtualServers().values()) {
            InetSocketAddress bound = director.localAddress(v.name());
            StickyTable sticky = v.selector().sticky();
            CounterBaselines.Counts counts = baselines.of(v);
            out.add(new JsonObject().put("name", v.name()).put("service", v.config().service())
                    .put("listen", bound == null ? v.config().listen().toString()
                            : bound.getAddress().getHostAddress() + ":" + bound.getPort())
                    .put("farm", v.config().farm()).put("inService", v.inService())
                    .put("received", counts.received()).put("forwarded", counts.forwarded())
                    .put("relayed", counts.relayed()).put("expired", counts.expired())
                    .put("stickyEntries", sticky == null ? null : sticky.size()));
        }
        return out;
    }

    private void setWeight(RoutingContext ctx, RealServer real) {
        JsonObject body;
        try {
            body = ctx.body().asJsonObject();
        } catch (RuntimeException e) {
            error(ctx, 400, "body must be JSON: {\"weight\": 0..255}");
            return;
        }
        Integer weight = body == null ? null : body.getInteger("weight");
        if (weight == null || weight < 0 || weight > 255) {
            error(ctx, 400, "weight must be 0..255");
            return;
        }
        real.setWeight(weight);
        json(ctx, 200, real(real));
    }

    /** A real's load figures, turned into its weight by the installed plug-in's formula (the home agent's DFP). */
    private void setLoad(RoutingContext ctx, RealServer real, LoadWeights weights) {
        int weight;
        try {
            weight = weights.weight(ctx.body().asJsonObject());
        } catch (RuntimeException e) {
            error(ctx, 400, weights.usage());
            return;
        }
        real.setWeight(weight);
        json(ctx, 200, real(real));
    }

    private void withFarm(RoutingContext ctx, java.util.function.Consumer<ServerFarm> action) {
        ServerFarm farm = director.farms().farm(ctx.pathParam("farm"));
        if (farm == null) {
            error(ctx, 404, "no farm named " + ctx.pathParam("farm"));
        } else {
            action.accept(farm);
        }
    }

    void withReal(RoutingContext ctx, java.util.function.Consumer<RealServer> action) {
        withFarm(ctx, farm -> {
            RealServer real = farm.real(ctx.pathParam("real"));
            if (real == null) {
                error(ctx, 404, "farm " + farm.name() + " has no real " + ctx.pathParam("real"));
            } else {
                action.accept(real);
            }
        });
    }

    private void withSticky(RoutingContext ctx, java.util.function.BiConsumer<StickyTable, StickyKey> action) {
        VirtualServer vs = director.virtualServers().get(ctx.pathParam("vserver"));
        if (vs == null) {
            error(ctx, 404, "no virtual server named " + ctx.pathParam("vserver"));
            return;
        }
        StickyTable table = vs.selector().sticky();
        if (table == null) {
            error(ctx, 404, "virtual server " + vs.name() + " keeps no sticky table");
            return;
        }
        String keyText = ctx.queryParams().get("key");
        StickyKind kind = vs.config().sticky().orElseThrow().keys().get(0);
        String kindText = ctx.queryParams().get("kind");
        if (kindText != null) {
            java.util.Optional<StickyKind> named = Plugins.installed().stickyKind(kindText);
            if (named.isEmpty() || !keys(vs, named.get())) {
                error(ctx, 400, "kind " + kindText + " is not a sticky key of service " + vs.config().service());
                return;
            }
            kind = named.get();
        }
        if (keyText == null) {
            error(ctx, 400, "query parameter key is required (a " + kind.configName() + ")");
            return;
        }
        try {
            action.accept(table, StickyKey.parse(kind, keyText));
        } catch (IllegalArgumentException e) {
            error(ctx, 400, e.getMessage());
        }
    }

    /** Starts or stops the debug capture of a virtual server: 200 with its files and counts, 404, or 500. */
    private void capture(RoutingContext ctx, boolean start) {
        String vserver = ctx.pathParam("vserver");
        try {
            json(ctx, 200, new JsonObject(start ? captures.start(vserver) : captures.stop(vserver)));
        } catch (IllegalArgumentException e) {
            error(ctx, 404, e.getMessage());
        } catch (java.io.IOException e) {
            error(ctx, 500, "cannot capture " + vserver + ": " + e.getMessage());
        }
    }

    static void json(RoutingContext ctx, int status, Object body) {
        ctx.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(body instanceof JsonArray a ? a.encodePrettily() : ((JsonObject) body).encodePrettily());
    }

    static void error(RoutingContext ctx, int status, String message) {
        json(ctx, status, new JsonObject().put("error", message));
    }
}
