package io.switchboard.app.admin;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /ui}: the status page, one HTML file in the jar ({@code ui/index.html}) that reads the admin API
 * from the browser. The page holds no data, so it is served without the token; its API calls carry it. The
 * content security policy lets it talk to this node only and load nothing from anywhere else.
 */
final class StatusPage {

    private static final String POLICY = "default-src 'none'; script-src 'unsafe-inline'; "
            + "style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'";

    private StatusPage() {
    }

    static void mount(Router router) {
        Buffer page = Buffer.buffer(read());
        router.get("/ui").handler(ctx -> ctx.response()
                .putHeader("content-type", "text/html; charset=utf-8")
                .putHeader("content-security-policy", POLICY)
                .putHeader("cache-control", "no-cache")
                .end(page));
    }

    private static byte[] read() {
        try (InputStream in = StatusPage.class.getResourceAsStream("/ui/index.html")) {
            if (in == null) {
                throw new IllegalStateException("ui/index.html is missing from the build");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
