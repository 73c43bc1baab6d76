package io.switchboard.director.udp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Upstream for protocols without transaction ids (generic UDP): one director socket per client flow
 * toward its real. Answers on that socket belong to that client and are matched to its requests in
 * order, so in-band failure detection works without knowing the protocol.
 */
final class FlowUpstream implements Upstream {

    static final int MAX_FLOWS = 16_384;
    static final int MAX_PENDING = 65_536;

    private final LaneContext lane;
    private final Map<InetSocketAddress, Flow> flows = new HashMap<>();
    private final PendingTable<PendingRequest> pending;
    private final long flowIdleNanos;
    private int nextFlowId;
    private long nextFlowSweepNanos;

    private record PendingRequest(Flow flow, long transactionId) {
    }

    FlowUpstream(LaneContext lane) {
        this.lane = lane;
        this.flowIdleNanos = lane.virtualServer.config().idle().toNanos();
        this.pending = new PendingTable<>(MAX_PENDING, lane.virtualServer.config().responseTimeout().toNanos(),
                this::expired);
    }

    @Override
    public Future<?> start() {
        return lane.loop.newSucceededFuture(null);
    }

    @Override
    public void forward(ByteBuf datagram, InetSocketAddress client, StickyKey key, long now) {
        Flow flow = flows.get(client);
        Selection.Reason how;
        if (flow != null && flow.real.servesBoundClients()) {
            how = Selection.Reason.STICKY;
        } else {
            Selection selection = lane.virtualServer.selector().select(key, now);
            if (selection == null) {
                lane.drop(EngineDrops.NO_REAL_AVAILABLE, client, null);
                return;
            }
            if (flow != null) {
                closeFlow(flow);
            } else if (flows.size() >= MAX_FLOWS) {
                selection.real().releaseClaim();
                lane.drop(EngineDrops.FLOWS_FULL, client, null);
                return;
            }
            flow = openFlow(client, selection, now);
            how = selection.reason();
        }
        long transactionId = flow.nextTransactionId();
        if (!pending.put(flow.real.slot(), transactionId, new PendingRequest(flow, transactionId), now)) {
            flow.real.releaseClaim();
            lane.drop(EngineDrops.PENDING_FULL, client, null);
            return;
        }
        flow.outstanding.addLast(transactionId);
        flow.lastUsedNanos = now;
        flow.real.requestForwarded();
        lane.metrics.forwarded(how);
        send(flow, datagram.retain());
    }

    private Flow openFlow(InetSocketAddress client, Selection selection, long now) {
        Flow[] self = new Flow[1];
        ChannelFuture bound = lane.bootstrap.get()
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        lane.tapIn(packet.sender(), ctx.channel(), packet.content());
                        answer(self[0], packet);
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        lane.flushRelays();
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        lane.log.warn("virtual server {}: socket toward {} failed: {}", lane.virtualServer.name(),
                                self[0].real.id(), cause.toString());
                    }
                })
                .bind(0);
        Flow flow = new Flow(nextFlowId++, client, selection.real(), bound, now);
        self[0] = flow;
        flows.put(client, flow);
        return flow;
    }

    /** Sends once the flow's socket is bound; until then the datagram waits, in order. */
    private void send(Flow flow, ByteBuf datagram) {
        DatagramPacket out = new DatagramPacket(datagram, flow.real.address());
        if (flow.bound.isDone()) {
            write(flow, out);
        } else {
            flow.bound.addListener(f -> write(flow, out));
        }
    }

    private void write(Flow flow, DatagramPacket out) {
        if (flow.bound.isSuccess() && flow.channel().isActive()) {
            lane.tapOut(flow.channel(), out.recipient(), out.content());
            flow.channel().writeAndFlush(out, flow.channel().voidPromise());
        } else {
            out.release();
            lane.log.warn("virtual server {}: no socket toward {}: {}", lane.virtualServer.name(), flow.real.id(),
                    flow.bound.cause() == null ? "closed" : flow.bound.cause().toString());
        }
    }

    /** A datagram from the real on a flow's socket: match it and relay it from the virtual address. */
    private void answer(Flow flow, DatagramPacket packet) {
        if (!packet.sender().equals(flow.real.address())) {
            lane.metrics.unmatched("unknown-source");
            lane.log.warn("virtual server {}: datagram from {} on the socket toward {} dropped",
                    lane.virtualServer.name(), packet.sender(), flow.real.id());
            return;
        }
        flow.lastUsedNanos = lane.ticker.nanos();
        boolean matched = false;
        for (Long tx = flow.outstanding.pollFirst(); tx != null; tx = flow.outstanding.pollFirst()) {
            if (pending.remove(flow.real.slot(), tx) != null) {
                matched = true;
                break;
            }
        }
        if (matched) {
            flow.real.requestAnswered();
        } else {
            // A flow, not a transaction: a late answer still belongs to the client.
            lane.metrics.unmatched("late");
        }
        lane.relay(packet.content().retain(), flow.client);
    }

    private void expired(PendingRequest request) {
        request.flow.outstanding.remove(request.transactionId);
        request.flow.real.requestUnanswered(request.flow.client.getAddress(), lane.ticker.nanos());
        lane.metrics.expired();
    }

    @Override
    public void housekeep(long now) {
        pending.expire(now);
        if (now - nextFlowSweepNanos >= 0) {
            nextFlowSweepNanos = now + TimeUnit.SECONDS.toNanos(1);
            for (Iterator<Flow> it = flows.values().iterator(); it.hasNext(); ) {
                Flow flow = it.next();
                if (flow.outstanding.isEmpty() && now - flow.lastUsedNanos > flowIdleNanos) {
                    it.remove();
                    flow.channel().close();
                }
            }
        }
    }

    private void closeFlow(Flow flow) {
        flows.remove(flow.client);
        flow.channel().close();
    }

    @Override
    public void close() {
        flows.values().forEach(f -> f.channel().close());
        flows.clear();
    }
}
