package io.switchboard.director;

import io.switchboard.director.real.Farms;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What listens on each virtual server's address: the verticle its service deployed, by virtual
 * server (a replaced one keeps its listener while it retires, beside its successor's), and what
 * they hold in flight. Bound and unbound by the director's start, stop and reloads; read by any
 * thread.
 */
final class Listeners {

    /** How often a count of what is in flight is taken again while waiting for it to reach zero. */
    static final long POLL_MILLIS = 20;

    private record Bound(VirtualServerListener listener, String deployment) {
    }

    private final VirtualServers virtualServers;
    private final Farms farms;
    private final Ticker ticker;
    private final Map<VirtualServer, Bound> bound = new ConcurrentHashMap<>();

    Listeners(VirtualServers virtualServers, Farms farms, Ticker ticker) {
        this.virtualServers = virtualServers;
        this.farms = farms;
        this.ticker = ticker;
    }

    /** Deploys the virtual server's listener (binds its address). */
    Future<Void> bind(Vertx vertx, VirtualServer vs) {
        VirtualServerListener listener = virtualServers.service(vs).listener(vs, farms, ticker);
        return vertx.deployVerticle(listener).map(id -> {
            bound.put(vs, new Bound(listener, id));
            return null;
        });
    }

    /** Undeploys the virtual server's listener (closes its sockets); done at once when it has none. */
    Future<Void> unbind(Vertx vertx, VirtualServer vs) {
        Bound b = bound.remove(vs);
        return b == null ? Future.succeededFuture() : vertx.undeploy(b.deployment());
    }

    /** The virtual server's listener, or null when it is not bound. */
    VirtualServerListener of(VirtualServer vs) {
        Bound b = vs == null ? null : bound.get(vs);
        return b == null ? null : b.listener();
    }

    /** Hands a listener over to the virtual server that replaced its own on the same sockets. */
    void handOver(VirtualServer from, VirtualServer to) {
        Bound b = bound.remove(from);
        if (b != null) {
            bound.put(to, b);
        }
    }

    /** Requests received and not answered yet over every listener, with the requests the reals triggered. */
    Future<Integer> inFlight() {
        List<Future<Integer>> counts = new ArrayList<>();
        bound.values().forEach(b -> counts.add(b.listener().inFlight()));
        int triggering = 0;
        for (VirtualServer vs : virtualServers.all()) {
            triggering += triggering(vs);
        }
        return sum(counts, triggering);
    }

    /**
     * What one virtual server still has to do: its requests in flight and those its reals
     * triggered, and with {@code quietNanos} above 0, one more while a datagram reached it that
     * recently (a client that has not moved to the new address yet).
     */
    Future<Integer> unsettled(VirtualServer vs, long quietNanos) {
        VirtualServerListener listener = of(vs);
        Future<Integer> own = listener == null ? Future.succeededFuture(0)
                : quietNanos > 0 ? listener.unsettled(quietNanos) : listener.inFlight();
        return sum(List.of(own), triggering(vs));
    }

    private static int triggering(VirtualServer vs) {
        return vs.relayedRequests() == null ? 0 : vs.relayedRequests().triggering().size();
    }

    private static Future<Integer> sum(List<Future<Integer>> counts, int plus) {
        return Future.all(counts).map(all -> plus + counts.stream().mapToInt(Future::result).sum());
    }

    /** Undeploys every listener. */
    Future<Void> unbindAll(Vertx vertx) {
        List<Future<Void>> undeploys = new ArrayList<>();
        for (VirtualServer vs : List.copyOf(bound.keySet())) {
            undeploys.add(unbind(vertx, vs));
        }
        return Future.all(undeploys).mapEmpty();
    }

    /**
     * Completes with 0 once {@code left} counts nothing, or at {@code untilNanos} (ticker time) with
     * what it counted last.
     */
    static Future<Integer> awaitNone(Vertx vertx, Ticker ticker, Supplier<Future<Integer>> left, long untilNanos) {
        Promise<Integer> done = Promise.promise();
        poll(vertx, ticker, left, untilNanos, done);
        return done.future();
    }

    private static void poll(Vertx vertx, Ticker ticker, Supplier<Future<Integer>> left, long until,
            Promise<Integer> done) {
        left.get().onComplete(counted -> {
            int n = counted.succeeded() ? counted.result() : 0;
            if (n == 0 || ticker.nanos() - until >= 0) {
                done.complete(n);
            } else {
                vertx.setTimer(POLL_MILLIS, id -> poll(vertx, ticker, left, until, done));
            }
        });
    }
}
