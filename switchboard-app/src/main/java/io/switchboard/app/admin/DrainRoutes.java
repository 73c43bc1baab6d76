package io.switchboard.app.admin;

import io.switchboard.director.Director;
import io.switchboard.director.config.bind.Durations;
import io.switchboard.director.real.RealDrain;
import io.switchboard.director.real.RealServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.time.Instant;

/**
 * A real's drain: {@code POST /api/v1/farms/{farm}/reals/{real}/drain}, with an optional body
 * {@code {"deadline":"10m"}}, starts it (200 with the real; 409 when the real is out of service,
 * there is nothing to drain); {@code GET} on the same path shows what is left (404 when the real is
 * not draining). {@code POST /api/v1/reals/{farm}/{real}/inservice} ends it. The paths of the other
 * real commands, {@code /api/v1/reals/{farm}/{real}/drain}, serve the same.
 */
final class DrainRoutes {

    private static final String USAGE = "body must be empty or JSON: {\"deadline\": \"10m\"}";

    private DrainRoutes() {
    }

    static void mount(Router router, AdminServer admin, Director director) {
        for (String path : new String[] {"/api/v1/farms/:farm/reals/:real/drain", "/api/v1/reals/:farm/:real/drain"}) {
            router.post(path).handler(ctx -> admin.withReal(ctx, real -> start(ctx, admin, director, real)));
            router.get(path).handler(ctx -> admin.withReal(ctx, real -> {
                RealDrain drain = real.currentDrain();
                if (drain == null) {
                    AdminServer.error(ctx, 404, "real " + real.id() + " of farm " + real.farm() + " is not draining");
                } else {
                    AdminServer.json(ctx, 200, drain(drain).put("farm", real.farm()).put("real", real.id())
                            .put("state", real.state().name()));
                }
            }));
        }
    }

    private static void start(RoutingContext ctx, AdminServer admin, Director director, RealServer real) {
        Duration deadline;
        try {
            deadline = deadline(ctx);
        } catch (IllegalArgumentException e) {
            AdminServer.error(ctx, 400, e.getMessage());
            return;
        }
        if (director.drainReal(real, deadline)) {
            AdminServer.json(ctx, 200, admin.real(real));
        } else {
            AdminServer.error(ctx, 409, "real " + real.id() + " of farm " + real.farm()
                    + " is out of service: nothing to drain");
        }
    }

    /** The body's deadline, null when the body or its deadline is absent. */
    private static Duration deadline(RoutingContext ctx) {
        JsonObject body;
        try {
            body = ctx.body().length() <= 0 ? null : ctx.body().asJsonObject();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(USAGE);
        }
        Object text = body == null ? null : body.getValue("deadline");
        if (text == null) {
            return null;
        }
        if (!(text instanceof String s)) {
            throw new IllegalArgumentException(USAGE);
        }
        Duration deadline;
        try {
            deadline = Durations.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("deadline " + e.getMessage());
        }
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("deadline must be positive");
        }
        return deadline;
    }

    /** A drain as the API shows it (in a real's entry and on its own), null for none. */
    static JsonObject drain(RealDrain drain) {
        if (drain == null) {
            return null;
        }
        RealDrain.Result result = drain.result();
        return new JsonObject().put("result", result == null ? "draining" : result.label())
                .put("done", result != null)
                .put("deadline", drain.hasDeadline() ? Instant.ofEpochMilli(drain.deadlineMillis()).toString() : null)
                .put("bindings", drain.bindingsLeft() < 0 ? null : drain.bindingsLeft())
                .put("connections", drain.connectionsLeft() < 0 ? null : drain.connectionsLeft());
    }
}
