package io.switchboard.director;

import io.switchboard.director.config.VirtualServerConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a reload adds, removes and replaces virtual servers on a running node, without losing what
 * they have in flight. A removed or replaced server retires: it answers what it holds — its
 * engine keeps its sockets toward the reals, so their answers still reach the clients — and its
 * plug-in is closed once nothing is left, or at the latest when its engine must have expired
 * everything ({@link VirtualServers#retireWithin}). One reload at a time calls these.
 *
 * <p>A replaced server on the same listen address keeps its sockets: each lane hands the datagrams
 * it reads from then on to the new server's engine, except a client's retransmission of a request
 * the old engine still has pending, which goes where the original went. On another address the new
 * server binds first; the old one serves on (new requests too, for clients that have not moved)
 * until no datagram reached it for its response timeout and nothing is in flight, then closes. A
 * datagram that reaches the old socket in the instant it closes is lost, as with any closed port.
 */
final class VirtualServerChanges {

    private static final Logger LOG = LoggerFactory.getLogger(VirtualServerChanges.class);

    /** How long past its deadline a retiring engine's lanes are given to report it closed. */
    private static final long FOLLOW_SLACK_NANOS = 1_000_000_000L;

    private final VirtualServers virtualServers;
    private final Listeners listeners;
    private final RouteHealth routeHealth;
    private final Ticker ticker;
    private final BooleanSupplier draining;

    VirtualServerChanges(VirtualServers virtualServers, Listeners listeners, RouteHealth routeHealth, Ticker ticker,
            BooleanSupplier draining) {
        this.virtualServers = virtualServers;
        this.listeners = listeners;
        this.routeHealth = routeHealth;
        this.ticker = ticker;
        this.draining = draining;
    }

    /** @param vertx null before the director starts: what is added is bound at start */
    Future<Void> add(Vertx vertx, VirtualServerConfig config) {
        if (virtualServers.byName().containsKey(config.name())) {
            return Future.failedFuture(new IllegalStateException("virtual server " + config.name() + " exists"));
        }
        VirtualServer vs = virtualServers.build(config, null);
        if (draining.getAsBoolean()) {
            vs.drain();
        }
        virtualServers.put(vs);
        if (vertx == null) {
            return Future.succeededFuture();
        }
        return listeners.bind(vertx, vs).onFailure(e -> {
            LOG.warn("virtual server {} not added: {}", config.name(), e.getMessage());
            virtualServers.take(config.name());
            virtualServers.retired(vs, null);
        });
    }

    /** Completes when the server is unbound, with what it still had in flight then. */
    Future<Integer> remove(Vertx vertx, String name) {
        VirtualServer vs = virtualServers.byName().get(name);
        if (vs == null) {
            return Future.failedFuture(new IllegalStateException("no virtual server " + name));
        }
        vs.remove();
        virtualServers.retiring.add(vs);
        virtualServers.take(name);
        routeHealth.advertise(name, java.util.Optional.empty());
        if (vertx == null) {
            virtualServers.retired(vs, null);
            return Future.succeededFuture(0);
        }
        long until = ticker.nanos() + VirtualServers.retireWithin(vs).toNanos();
        return Listeners.awaitNone(vertx, ticker, () -> listeners.unsettled(vs, 0), until)
                .compose(left -> listeners.unbind(vertx, vs).map(left))
                .onComplete(unbound -> {
                    virtualServers.retired(vs, null);
                    int left = unbound.succeeded() ? unbound.result() : -1;
                    LOG.info("virtual server {} removed: unbound with {} request(s) unanswered", name, left);
                });
    }

    /** Completes once the new server serves; the old one retires after. */
    Future<Void> replace(Vertx vertx, VirtualServerConfig next) {
        VirtualServer old = virtualServers.byName().get(next.name());
        if (old == null) {
            return Future.failedFuture(new IllegalStateException("no virtual server " + next.name()));
        }
        VirtualServer replacement = virtualServers.build(next, old);
        replacement.tap(old.tap());
        if (draining.getAsBoolean()) {
            replacement.drain();
        }
        if (vertx == null) {
            virtualServers.put(replacement);
            virtualServers.retired(old, replacement);
            return Future.succeededFuture();
        }
        long until = ticker.nanos() + VirtualServers.retireWithin(old).toNanos();
        if (old.config().listen().equals(next.listen())) {
            VirtualServerListener listener = listeners.of(old);
            virtualServers.retiring.add(old);
            return listener.replace(replacement, until).onSuccess(v -> {
                listeners.handOver(old, replacement);
                virtualServers.put(replacement);
                // The lanes close the old engines themselves by the deadline; this only follows them.
                Listeners.awaitNone(vertx, ticker, listener::retiring, until + FOLLOW_SLACK_NANOS)
                        .onComplete(done -> retired(old, replacement, "on the same sockets"));
            }).onFailure(e -> notReplaced(old, replacement, e));
        }
        long quiet = old.config().responseTimeout().toNanos();
        return listeners.bind(vertx, replacement).onSuccess(v -> {
            virtualServers.retiring.add(old);
            virtualServers.put(replacement);
            Listeners.awaitNone(vertx, ticker, () -> listeners.unsettled(old, quiet), until + quiet)
                    .compose(left -> listeners.unbind(vertx, old))
                    .onComplete(done -> retired(old, replacement, "on " + next.listen() + " (the old address closed)"));
        }).onFailure(e -> notReplaced(old, replacement, e));
    }

    private void retired(VirtualServer old, VirtualServer replacement, String how) {
        virtualServers.retired(old, replacement);
        LOG.info("virtual server {} replaced {}", old.name(), how);
    }

    private void notReplaced(VirtualServer old, VirtualServer replacement, Throwable why) {
        virtualServers.retiring.remove(old);
        virtualServers.discard(replacement, old);
        LOG.warn("virtual server {} not replaced, the running one serves on: {}", old.name(), why.getMessage());
    }
}
