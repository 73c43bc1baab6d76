package io.switchboard.app.admin;

import io.switchboard.app.ios.IosExporter;
import io.switchboard.app.config.RedactedYaml;
import io.switchboard.app.reload.ConfigChange;
import io.switchboard.app.reload.Reloader;
import io.switchboard.app.reload.RunningConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * {@code GET /api/v1/config}: the running configuration's digest and YAML (its secrets masked). {@code POST
 * /api/v1/config} with a new document (YAML; IOS SLB text with {@code Content-Type: text/x-ios-slb}
 * or {@code ?format=ios}): 200 with what changed, {@code {"added":[…],"removed":[…],"changed":[…]}};
 * 422 with every error when it is not valid; 409 with the {@code needs-restart} paths when a change
 * cannot be applied in place. Nothing changes unless the answer is 200.
 */
final class ConfigRoutes {

    /** A configuration document is larger than the API's other bodies. */
    private static final int BODY_LIMIT = 8 << 20;
    static final String IOS_CONTENT_TYPE = "text/x-ios-slb";

    private ConfigRoutes() {
    }

    /** Mounts the routes; before the API's own body handler, whose limit suits small JSON bodies. */
    static void mount(Router router, Reloader reloader) {
        router.get("/api/v1/config").handler(ctx -> {
            RunningConfig running = reloader.running();
            // Secrets written in the document are masked: the API shows the configuration, never its keys.
            JsonObject body = new JsonObject().put("digest", running.digest())
                    .put("yaml", running.yaml() == null ? null : RedactedYaml.of(running.yaml()));
            if ("ios".equals(ctx.queryParams().get("format"))) {
                // What IOS can express of the validated configuration (the rest as ! comments), as export-ios writes it.
                body.put("ios", IosExporter.exportMasked(running.config()));
            }
            AdminServer.json(ctx, 200, body);
        });
        // Parsing, translating and sharing the changes with the cluster: off the event loop.
        router.post("/api/v1/config").handler(BodyHandler.create().setBodyLimit(BODY_LIMIT))
                .blockingHandler(ctx -> reload(ctx, reloader));
    }

    private static void reload(RoutingContext ctx, Reloader reloader) {
        String type = ctx.request().getHeader("Content-Type");
        boolean ios = "ios".equals(ctx.queryParams().get("format"))
                || (type != null && type.toLowerCase(java.util.Locale.ROOT).startsWith(IOS_CONTENT_TYPE));
        String text = ctx.body().asString("UTF-8");
        Reloader.Outcome outcome = reloader.reload(text == null ? "" : text, ios,
                "POST /api/v1/config from " + ctx.request().remoteAddress());
        JsonObject body = new JsonObject().put("result", outcome.result().label())
                .put("digest", reloader.running().digest());
        for (ConfigChange.Kind kind : ConfigChange.Kind.values()) {
            body.put(kind.label(), new JsonArray(outcome.changes().stream().filter(c -> c.kind() == kind)
                    .map(c -> (Object) new JsonObject().put("path", c.path()).put("old", c.oldValue())
                            .put("new", c.newValue()))
                    .toList()));
        }
        switch (outcome.result()) {
            case APPLIED, UNCHANGED -> AdminServer.json(ctx, 200, body);
            case REFUSED -> AdminServer.json(ctx, 409, body.put("needs-restart", new JsonArray(outcome.needsRestart()))
                    .put("error", "these changes need a restart; nothing was changed"));
            case INVALID -> AdminServer.json(ctx, 422, new JsonObject().put("result", outcome.result().label())
                    .put("error", "the configuration is not valid; nothing was changed")
                    .put("errors", new JsonArray(outcome.errors().stream()
                            .map(e -> (Object) new JsonObject().put("path", e.path()).put("message", e.message()))
                            .toList())));
        }
    }
}
