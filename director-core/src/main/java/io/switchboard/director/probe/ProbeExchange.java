package io.switchboard.director.probe;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.datagram.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.util.function.BiConsumer;

/**
 * What the datagram probes share, the engine's and the plug-ins': a socket of its own for one
 * check, the request sent to the real, answers from the real's address handed to the probe until it
 * completes or fails the check, a timeout, and the socket and timer released either way.
 */
public final class ProbeExchange {

    private ProbeExchange() {
    }

    /**
     * @param onAnswer given each datagram from the target's address and the check's promise, which it
     *                 completes or fails (or leaves alone to wait for another datagram)
     * @param silence  why the check fails when nothing completes it within {@code timeoutMillis}
     */
    public static Future<Void> exchange(Vertx vertx, InetSocketAddress target, byte[] request, long timeoutMillis,
            String silence, BiConsumer<byte[], Promise<Void>> onAnswer) {
        DatagramSocket socket = vertx.createDatagramSocket();
        Promise<Void> result = Promise.promise();
        String host = target.getAddress().getHostAddress();
        socket.handler(packet -> {
            if (packet.sender().host().equals(host)) {
                onAnswer.accept(packet.data().getBytes(), result);
            }
        });
        long timer = vertx.setTimer(timeoutMillis, t -> result.tryFail(silence + " within " + timeoutMillis + " ms"));
        socket.listen(0, target.getAddress() instanceof Inet6Address ? "::" : "0.0.0.0")
                .compose(s -> s.send(Buffer.buffer(request), target.getPort(), host))
                .onFailure(result::tryFail);
        return result.future().eventually(() -> {
            vertx.cancelTimer(timer);
            return socket.close();
        });
    }
}
