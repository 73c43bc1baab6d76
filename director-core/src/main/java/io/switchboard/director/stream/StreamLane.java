package io.switchboard.director.stream;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.transaction.ClientSide;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.Intake;
import io.switchboard.director.transaction.StreamedRealSide;
import io.switchboard.director.transaction.TransactionEngine;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * One event loop's connected clients ({@link io.switchboard.director.spi.ClientStreams}): the
 * connections accepted on that loop and the transaction engine that serves their requests — the
 * virtual server's own plug-in, intake and selector, as its UDP lanes run them, so a request that
 * came on a connection is decided exactly as a datagram is — with its own way to the reals
 * (datagram sockets, and the plug-in's {@link RealStreams} for the reals it reaches by stream) and
 * its answers written back on the connection the request came on. After a reload the replaced
 * engine answers what it holds beside the new one until it is done or its deadline. Confined to
 * the loop.
 */
final class StreamLane implements ClientSide {

    private static final long HOUSEKEEPING_MILLIS = 20;

    private final Farms farms;
    private final EventLoop loop;
    private final Ticker ticker;
    private final RateLimitedLog log;
    /** The connected clients of this loop by their address: where an answer to one goes. */
    private final Map<InetSocketAddress, Channel> clients = new HashMap<>();
    private Engine current;
    private final List<Engine> retiring = new ArrayList<>();
    private final ScheduledFuture<?> housekeeping;

    StreamLane(VirtualServer virtualServer, Farms farms, EventLoop loop, Ticker ticker) {
        this.farms = farms;
        this.loop = loop;
        this.ticker = ticker;
        this.log = new RateLimitedLog(LoggerFactory.getLogger(StreamLane.class), Duration.ofSeconds(10), ticker);
        this.current = new Engine(virtualServer);
        this.housekeeping = loop.scheduleAtFixedRate(this::housekeep, HOUSEKEEPING_MILLIS, HOUSEKEEPING_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** A client's connection is up: answers to its address go on it. */
    void connected(InetSocketAddress client, Channel channel) {
        clients.put(client, channel);
    }

    void closed(InetSocketAddress client, Channel channel) {
        clients.remove(client, channel);
    }

    /**
     * One request read from a client's connection: admitted and decided as a datagram to the
     * virtual address is ({@link Intake}), then forwarded by the engine. Borrows {@code packet}.
     */
    void request(ByteBuf packet, InetSocketAddress client) {
        // A buffer of its own, which the plug-in may lengthen (VSA correlation) and the engine keeps.
        ByteBuf request = packet.alloc().buffer(packet.readableBytes()).writeBytes(packet, packet.readerIndex(),
                packet.readableBytes());
        try {
            Engine engine = current;
            Decision.Direct decision = engine.intake.admit(request, client, request.alloc(), this);
            if (decision != null) {
                long now = ticker.nanos();
                boolean resent = false;
                for (Engine old : retiring) {
                    resent = resent || old.engine.resendPending(request, client, decision, now);
                }
                if (!resent) {
                    engine.engine.request(request, client, decision, now);
                }
            }
            flush();
        } finally {
            request.release();
        }
    }

    /** An answer (relayed, or the plug-in's own) to a client: on its connection, if it is still there. */
    @Override
    public void toClient(ByteBuf datagram, InetSocketAddress to) {
        Channel channel = clients.get(to);
        if (channel == null || !channel.isActive()) {
            datagram.release();
            current.scope.drop(EngineDrops.SEND_FAILED, to, "its connection closed before the answer");
            return;
        }
        channel.writeAndFlush(datagram, channel.voidPromise());
    }

    /** Serves {@code next} from now on; the current engine retires until {@code retireBy} (ticker time). */
    void replace(VirtualServer next, long retireBy) {
        current.retireBy = retireBy;
        retiring.add(current);
        current = new Engine(next);
    }

    /** Requests waiting for their answer, over the lane's engines. */
    int inFlight() {
        int n = current.engine.inFlight();
        for (Engine old : retiring) {
            n += old.engine.inFlight();
        }
        return n;
    }

    int retiringCount() {
        return retiring.size();
    }

    private void housekeep() {
        long now = ticker.nanos();
        current.engine.housekeep(now);
        for (Iterator<Engine> it = retiring.iterator(); it.hasNext(); ) {
            Engine old = it.next();
            old.engine.housekeep(now);
            if (old.engine.inFlight() == 0 || now - old.retireBy >= 0) {
                old.close();
                it.remove();
            }
        }
        flush();
    }

    private void flush() {
        current.flush();
        for (Engine old : retiring) {
            old.flush();
        }
    }

    void close() {
        housekeeping.cancel(false);
        current.close();
        retiring.forEach(Engine::close);
        retiring.clear();
        for (Channel channel : new ArrayList<>(clients.values())) {
            channel.close();
        }
        clients.clear();
    }

    /** One virtual server's engine on the lane, with its way to the reals. */
    private final class Engine {

        final EngineScope scope;
        final Intake intake;
        final TransactionEngine engine;
        final StreamDatagramReals datagrams;
        final StreamedRealSide reals;
        long retireBy;

        Engine(VirtualServer virtualServer) {
            this.scope = new EngineScope(virtualServer, ticker, log, EngineEvents.NONE);
            this.intake = new Intake(scope);
            RealStreams.Answers answers = this::answer;
            TransactionPlugin<?> plugin = (TransactionPlugin<?>) virtualServer.plugin();
            this.datagrams = new StreamDatagramReals(loop, answers);
            RealStreams streams = plugin.realStreams();
            this.reals = streams == null ? null : new StreamedRealSide(datagrams, streams, streams.open(loop, answers));
            this.engine = new TransactionEngine(scope, plugin, farms, reals == null ? datagrams : reals,
                    StreamLane.this);
            engine.start();
        }

        /** An answer read on the loop, outside any read of a client's: handed over, then what it sent flushed. */
        private void answer(ByteBuf answer, InetSocketAddress from, int socket) {
            engine.answer(answer, from, socket);
            flush();
        }

        void flush() {
            datagrams.flush();
            if (reals != null) {
                reals.flush();
            }
        }

        void close() {
            engine.close();
            datagrams.closeAll();
            if (reals != null) {
                reals.close();
            }
        }
    }
}
