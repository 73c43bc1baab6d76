package io.switchboard.director.udp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.ScheduledFuture;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.metrics.VirtualServerMetrics;
import io.switchboard.director.pending.PendingTable;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One event loop's share of a UDP virtual server: the virtual-address socket bound on that loop,
 * the flows of the clients the kernel hashed to it, and their pending requests. Everything here is
 * touched only by that loop's thread, so nothing is locked.
 */
final class UdpLane {

    private static final Logger LOG = LoggerFactory.getLogger(UdpLane.class);
    static final int MAX_FLOWS = 16_384;
    static final int MAX_PENDING = 65_536;
    private static final long HOUSEKEEPING_MILLIS = 20;

    private final VirtualServer virtualServer;
    private final VirtualServerMetrics metrics;
    private final EventLoop loop;
    private final Ticker ticker;
    private final Supplier<Bootstrap> upstreamBootstrap;
    private final Map<InetSocketAddress, Flow> flows = new HashMap<>();
    private final PendingTable<PendingRequest> pending;
    private final long flowIdleNanos;
    private final int maxDatagram;
    private final RateLimitedLog dropLog;
    private Channel virtualAddress;
    private ScheduledFuture<?> housekeeping;
    private int nextFlowId;
    private long nextFlowSweepNanos;

    private record PendingRequest(Flow flow, long transactionId) {
    }

    UdpLane(VirtualServer virtualServer, EventLoop loop, Ticker ticker, Supplier<Bootstrap> upstreamBootstrap) {
        this.virtualServer = virtualServer;
        this.metrics = virtualServer.metrics();
        this.loop = loop;
        this.ticker = ticker;
        this.upstreamBootstrap = upstreamBootstrap;
        this.flowIdleNanos = virtualServer.config().idle().toNanos();
        this.maxDatagram = virtualServer.config().maxDatagram();
        this.pending = new PendingTable<>(MAX_PENDING, virtualServer.config().responseTimeout().toNanos(), this::expired);
        this.dropLog = new RateLimitedLog(LOG, Duration.ofSeconds(10), ticker);
    }

    ChannelHandler virtualAddressHandler() {
        return new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                request(packet.content(), packet.sender());
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                dropLog.warn("virtual server {}: socket error: {}", virtualServer.name(), cause.toString());
            }
        };
    }

    void start(Channel virtualAddress) {
        this.virtualAddress = virtualAddress;
        this.housekeeping = loop.scheduleAtFixedRate(this::housekeep, HOUSEKEEPING_MILLIS, HOUSEKEEPING_MILLIS,
                TimeUnit.MILLISECONDS);
    }

    /** Steps 2 to 7 of the packet path for one datagram sent to the virtual address. */
    private void request(ByteBuf datagram, InetSocketAddress client) {
        metrics.received();
        if (!virtualServer.inService()) {
            drop(DropReason.OUT_OF_SERVICE, client, null);
            return;
        }
        if (datagram.readableBytes() > maxDatagram) {
            drop(DropReason.OVERSIZED, client, null);
            return;
        }
        StickyKey key;
        try {
            key = virtualServer.plugin().classify(datagram, client);
        } catch (DecodeException e) {
            drop(e.reason(), client, e.getMessage());
            return;
        }
        long now = ticker.nanos();
        Flow flow = flows.get(client);
        Selection.Reason how;
        if (flow != null && flow.real.servesBoundClients()) {
            how = Selection.Reason.STICKY;
        } else {
            Selection selection = virtualServer.selector().select(key, now);
            if (selection == null) {
                drop(DropReason.NO_REAL_AVAILABLE, client, null);
                return;
            }
            if (flow != null) {
                closeFlow(flow);
            } else if (flows.size() >= MAX_FLOWS) {
                drop(DropReason.FLOWS_FULL, client, null);
                return;
            }
            flow = openFlow(client, selection, now);
            how = selection.reason();
        }
        long transactionId = flow.nextTransactionId();
        if (!pending.put(flow.real.slot(), transactionId, new PendingRequest(flow, transactionId), now)) {
            drop(DropReason.PENDING_FULL, client, null);
            return;
        }
        flow.outstanding.addLast(transactionId);
        flow.lastUsedNanos = now;
        flow.real.requestForwarded();
        metrics.forwarded(how);
        send(flow, datagram.retain());
    }

    private Flow openFlow(InetSocketAddress client, Selection selection, long now) {
        Flow[] self = new Flow[1];
        ChannelFuture bound = upstreamBootstrap.get()
                .handler(new SimpleChannelInboundHandler<DatagramPacket>() {
                    @Override
                    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                        answer(self[0], packet);
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        dropLog.warn("virtual server {}: socket toward {} failed: {}", virtualServer.name(),
                                self[0].real.id(), cause.toString());
                    }
                })
                .bind(0);
        Flow flow = new Flow(nextFlowId++, client, selection.real(), bound, now);
        self[0] = flow;
        flows.put(client, flow);
        return flow;
    }

    /** Sends once the flow's socket is bound; until then the datagram waits in order. */
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
            flow.channel().writeAndFlush(out, flow.channel().voidPromise());
        } else {
            out.release();
            dropLog.warn("virtual server {}: no socket toward {}: {}", virtualServer.name(), flow.real.id(),
                    flow.bound.cause() == null ? "closed" : flow.bound.cause().toString());
        }
    }

    /** A datagram from the real on a flow's socket: match it and relay it from the virtual address. */
    private void answer(Flow flow, DatagramPacket packet) {
        if (!packet.sender().equals(flow.real.address())) {
            metrics.unmatched("unknown-source");
            dropLog.warn("virtual server {}: datagram from {} on the socket toward {} dropped",
                    virtualServer.name(), packet.sender(), flow.real.id());
            return;
        }
        flow.lastUsedNanos = ticker.nanos();
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
            // Generic UDP is a flow, not a transaction: a late answer still belongs to the client.
            metrics.unmatched("late");
        }
        metrics.relayed();
        virtualAddress.writeAndFlush(new DatagramPacket(packet.content().retain(), flow.client),
                virtualAddress.voidPromise());
    }

    private void expired(PendingRequest request) {
        request.flow.outstanding.remove(request.transactionId);
        request.flow.real.requestUnanswered(request.flow.client.getAddress(), ticker.nanos());
        metrics.expired();
    }

    private void housekeep() {
        long now = ticker.nanos();
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

    private void drop(DropReason reason, InetSocketAddress client, String detail) {
        metrics.dropped(reason);
        dropLog.warn("virtual server {}: dropped datagram from {}: {}{}", virtualServer.name(), client, reason,
                detail == null ? "" : " (" + detail + ")");
    }

    int flows() {
        return flows.size();
    }

    /** Closes the lane's sockets on its own loop. */
    io.netty.util.concurrent.Future<?> close() {
        return loop.submit(() -> {
            if (housekeeping != null) {
                housekeeping.cancel(false);
            }
            flows.values().forEach(f -> f.channel().close());
            flows.clear();
            virtualAddress.close();
        });
    }
}
