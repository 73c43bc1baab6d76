package io.switchboard.director.probe;

import io.switchboard.director.config.ProbeCheck;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.dns.DnsClientOptions;
import java.net.InetSocketAddress;
import java.time.Duration;

/** A DNS A query sent to the real, which must answer with the expected address (IOS {@code probe dns}). */
public final class DnsProbe implements Probe {

    private final Vertx vertx;
    private final ProbeCheck.Dns check;
    private final long timeoutMillis;

    public DnsProbe(Vertx vertx, ProbeCheck.Dns check, Duration timeout) {
        this.vertx = vertx;
        this.check = check;
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        var client = vertx.createDnsClient(new DnsClientOptions().setHost(target.getAddress().getHostAddress())
                .setPort(target.getPort()).setQueryTimeout(timeoutMillis).setRecursionDesired(false));
        String expected = check.expectAddress().getHostAddress();
        return client.resolveA(check.name())
                .compose(addresses -> addresses.contains(expected) ? Future.<Void>succeededFuture()
                        : Future.<Void>failedFuture(check.name() + " resolved to " + addresses + ", expected " + expected))
                .eventually(() -> client.close());
    }
}
