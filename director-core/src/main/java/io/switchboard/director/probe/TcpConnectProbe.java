package io.switchboard.director.probe;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import java.net.InetSocketAddress;
import java.time.Duration;

/** Passes when the real accepts a TCP connection; the connection is closed at once. */
public final class TcpConnectProbe implements Probe {

    private final NetClient client;

    public TcpConnectProbe(Vertx vertx, Duration timeout) {
        this.client = vertx.createNetClient(new NetClientOptions().setConnectTimeout((int) timeout.toMillis()));
    }

    @Override
    public Future<Void> check(InetSocketAddress target) {
        return client.connect(target.getPort(), target.getAddress().getHostAddress())
                .compose(socket -> socket.close());
    }

    @Override
    public void close() {
        client.close();
    }
}
