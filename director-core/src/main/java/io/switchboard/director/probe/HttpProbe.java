package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeCheck;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.InetSocketAddress;
import java.time.Duration;

/** An HTTP GET that must be answered with the expected status (IOS {@code probe http}, {@code expect status}). */
public final class HttpProbe implements Probe {

    private final HttpClient client;
    private final ProbeCheck.Http check;
    private final long timeoutMillis;

    public HttpProbe(Vertx vertx, ProbeCheck.Http check, Duration timeout) {
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
        // No pooling across checks: each check must open its own connection, as a new client would.
        this.client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false)
                .setConnectTimeout((int) timeoutMillis));
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        RequestOptions request = new RequestOptions().setMethod(HttpMethod.GET)
                .setHost(target.getAddress().getHostAddress()).setPort(target.getPort()).setURI(check.path())
                .setIdleTimeout(timeoutMillis);
        check.host().ifPresent(host -> request.putHeader("Host", host));
        return client.request(request)
                .compose(req -> req.send())
                .compose(response -> response.body().compose(body -> response.statusCode() == check.expectStatus()
                        ? Future.succeededFuture()
                        : Future.failedFuture("status " + response.statusCode() + ", expected " + check.expectStatus())));
    }

    @Override
    public void close() {
        client.close();
    }
}
