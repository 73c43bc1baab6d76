package io.switchboard.director.udp;

import io.switchboard.director.spi.TransactionPlugin;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.Future;
import io.switchboard.director.real.Farms;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.transaction.EngineEvents;
import io.switchboard.director.transaction.EngineScope;
import io.switchboard.director.transaction.RealSide;
import io.switchboard.director.transaction.StreamedRealSide;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.transaction.TransactionEngine;
import java.net.InetSocketAddress;

/**
 * Upstream for protocols with transaction ids: the {@link TransactionEngine} of the lane, which
 * decides everything, in front of the lane's director sockets toward the reals
 * ({@link UpstreamSockets}), which carry what it sends and hand it the answers — and, for the reals
 * its plug-in reaches over streams of its own ({@link RealStreams}: RADIUS over TLS), the plug-in's
 * connections, opened on the lane's loop.
 */
final class TransactionUpstream implements Upstream {

    private final UpstreamSockets sockets;
    private final TransactionEngine engine;
    /** The plug-in's connections toward the reals it reaches by stream, or null. */
    private final StreamedRealSide streams;

    TransactionUpstream(LaneContext lane, TransactionPlugin<?> plugin, Farms farms) {
        this.sockets = new UpstreamSockets(lane, this::answer);
        RealStreams realStreams = plugin.realStreams();
        this.streams = realStreams == null ? null
                : new StreamedRealSide(sockets, realStreams, realStreams.open(lane.loop, (answer, from, socket) -> {
                    // Read outside the lane's read burst: what it relays (or resends) leaves now.
                    answer(answer, from, socket);
                    lane.flushRelays();
                    flush();
                }));
        RealSide reals = streams == null ? sockets : streams;
        this.engine = new TransactionEngine(new EngineScope(lane.virtualServer, lane.ticker, lane.log, EngineEvents.NONE),
                plugin, farms, reals, lane);
    }

    /** Opens the first socket; the others open when ids run out. */
    @Override
    public Future<?> start() {
        engine.start();
        return sockets.first();
    }

    @Override
    public void forward(ByteBuf datagram, InetSocketAddress client, Decision.Direct request, long now) {
        engine.request(datagram, client, request, now);
    }

    @Override
    public boolean resendPending(ByteBuf datagram, InetSocketAddress client, Decision.Direct request, long now) {
        return engine.resendPending(datagram, client, request, now);
    }

    private void answer(ByteBuf answer, InetSocketAddress sender, int socket) {
        engine.answer(answer, sender, socket);
    }

    @Override
    public void flush() {
        sockets.flush();
        if (streams != null) {
            streams.flush();
        }
    }

    @Override
    public void housekeep(long now) {
        engine.housekeep(now);
        sockets.housekeep(now);
    }

    @Override
    public int inFlight() {
        return engine.inFlight();
    }

    @Override
    public void close() {
        engine.close();
        sockets.closeAll();
        if (streams != null) {
            streams.close();
        }
    }
}
