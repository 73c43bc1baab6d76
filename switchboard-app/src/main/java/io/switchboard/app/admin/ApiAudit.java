package io.switchboard.app.admin;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line for every change asked of the admin API (any method but GET, HEAD and OPTIONS), once it
 * is answered: method, path, the source address and port, and the status: who took a real out of
 * service, or posted a configuration, stays known. Refused tokens are logged the same way, as
 * warnings. Counted by outcome ({@code switchboard.admin.changes{outcome}}: {@code done},
 * {@code refused} (4xx but 401), {@code unauthorized} (401), {@code failed} (5xx)). Bodies and the
 * Authorization header are never logged.
 */
final class ApiAudit {

    private static final Logger LOG = LoggerFactory.getLogger("io.switchboard.audit");

    private final Counter done;
    private final Counter refused;
    private final Counter unauthorized;
    private final Counter failed;

    ApiAudit(MeterRegistry registry) {
        this.done = counter(registry, "done");
        this.refused = counter(registry, "refused");
        this.unauthorized = counter(registry, "unauthorized");
        this.failed = counter(registry, "failed");
    }

    private static Counter counter(MeterRegistry registry, String outcome) {
        return Counter.builder("switchboard.admin.changes").tag("outcome", outcome)
                .description("Changes asked of the admin API, by outcome").register(registry);
    }

    /** The first handler of {@code /api/*}: logs the change when its answer has been sent. */
    void handle(RoutingContext ctx) {
        HttpMethod method = ctx.request().method();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD && method != HttpMethod.OPTIONS) {
            String source = String.valueOf(ctx.request().remoteAddress());
            String path = ctx.request().path();
            ctx.addEndHandler(v -> record(method, path, source, ctx.response().getStatusCode()));
        }
        ctx.next();
    }

    private void record(HttpMethod method, String path, String source, int status) {
        if (status == 401) {
            unauthorized.increment();
            LOG.warn("admin API: {} {} from {}: {} (missing or wrong token)", method, path, source, status);
        } else if (status >= 500) {
            failed.increment();
            LOG.warn("admin API: {} {} from {}: {}", method, path, source, status);
        } else if (status >= 400) {
            refused.increment();
            LOG.info("admin API: {} {} from {}: {} (refused, nothing changed)", method, path, source, status);
        } else {
            done.increment();
            LOG.info("admin API: {} {} from {}: {}", method, path, source, status);
        }
    }
}
