package io.switchboard.pcap;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.Director;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.Selection;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTableFactory;
import io.switchboard.director.udp.DatagramService;
import io.switchboard.director.udp.LocalResponder;
import io.switchboard.director.udp.PeerRelay;
import io.switchboard.director.udp.ResponseVerdict;
import io.switchboard.director.udp.TransactionPlugin;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An offline what-if run: the requests of captures go through a configuration's virtual servers with
 * the engine of a live director — the same plug-ins ({@code classify}), the same
 * {@link io.switchboard.director.RealSelector}s, sticky tables and predictors, built by
 * {@link Director} — but no sockets, and a manual clock driven by the capture timestamps. What the
 * live upstream decides itself is done here as it does it: a session's pinned real
 * ({@code RealSelector.pinned}), requests pending until their answer or response timeout
 * ({@link PendingRequests}: retransmissions, unanswered requests counted at the real,
 * {@code pending-full}), generic UDP client flows ({@link OfflineFlows}), resends after a refusal.
 * The simulated reals answer with the capture's answers or take a request silently; a real can be
 * taken out of service at a given frame ({@link WhatIfFailure}) to see where its subscribers go.
 * {@link LiveWhatIf} runs the same captures through a live director and must agree line by line
 * ({@code whatif --compare}): until one engine serves both, this class is the second copy of those
 * decisions, and the comparison is what keeps the copies equal.
 *
 * <p>A request belongs to the virtual server whose port it was sent to, and address unless the
 * virtual server listens on a wildcard address. Answers ({@link MessageDirection}) are skipped.
 * Frames that cannot be read are reported as {@link WhatIfOutcome#unreadable} and skipped. A request
 * is a stickiness violation as {@link StickinessAudit} judges it.
 */
public final class WhatIf extends WhatIfRun {

    private final ObservedStickyTables tables = new ObservedStickyTables(StickyTableFactory.IN_MEMORY);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Director director;
    private final Map<RealServer, Long> directorIds = new IdentityHashMap<>();
    private final Map<String, PendingRequests> pending = new HashMap<>();
    private final Map<String, OfflineFlows> flows = new HashMap<>();

    /** @param services the plug-in of each virtual server (the launcher's {@code Services}) */
    public WhatIf(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
                  List<WhatIfFailure> failures) {
        super(config, failures);
        this.director = new Director(config, services, registry, this::directorNow,
                tables);
        checkFailures();
    }

    @Override
    protected Director director() {
        return director;
    }

    @Override
    protected ObservedStickyTables stickyTables() {
        return tables;
    }

    @Override
    protected SimpleMeterRegistry registry() {
        return registry;
    }

    @Override
    protected void housekeep(long nowNanos) {
        for (VirtualServer vs : director.virtualServers().values()) {
            if (vs.plugin() instanceof TransactionPlugin) {
                pendingAt(vs).expire(nowNanos);
            } else {
                flowsAt(vs).housekeep(nowNanos);
            }
            vs.plugin().housekeep(nowNanos);
        }
    }

    private OfflineFlows flowsAt(VirtualServer vs) {
        return flows.computeIfAbsent(vs.name(), n -> new OfflineFlows(vs.config().idle().toNanos(),
                vs.config().responseTimeout().toNanos()));
    }

    private PendingRequests pendingAt(VirtualServer vs) {
        return pending.computeIfAbsent(vs.name(), n -> new PendingRequests(vs.config().responseTimeout().toNanos()));
    }

    /** As the live lane takes a datagram sent to the virtual address (UdpLane.request), then the upstream. */
    @Override
    protected Direction direct(VirtualServer vs, UdpDatagram d, SignalingProtocol protocol, byte[] bytes,
                               CapturedAnswers answers) {
        if (!vs.inService()) {
            return Direction.notSent(null, "dropped:" + EngineDrops.OUT_OF_SERVICE.name());
        }
        if (bytes.length > vs.config().maxDatagram()) {
            return Direction.notSent(null, "dropped:" + DropReason.OVERSIZED.name());
        }
        InetSocketAddress sender = new InetSocketAddress(d.source(), d.sourcePort());
        TransactionPlugin transactions = vs.plugin() instanceof TransactionPlugin t ? t : null;
        StickyKey key = null;
        long clientId = 0;
        Selection selection;
        BindingEnd ended;
        try {
            if (vs.plugin() instanceof LocalResponder responder) {
                ByteBuf local = responder.answerLocally(Unpooled.wrappedBuffer(bytes), sender, UnpooledByteBufAllocator.DEFAULT);
                if (local != null) {
                    local.release();
                    return Direction.notSent(null, "answered-locally");
                }
            }
            if (vs.plugin() instanceof PeerRelay relay && relay.relayTarget(Unpooled.wrappedBuffer(bytes), sender) != null) {
                return Direction.notSent(null, "relayed");
            }
            key = vs.plugin().classify(Unpooled.wrappedBuffer(bytes), sender);
            ended = ObservedStickyTables.ended(vs.selector().sticky(), key, now());
            if (transactions != null) {
                clientId = transactions.clientTransactionId(Unpooled.wrappedBuffer(bytes));
                PendingRequests.Pending resent = pendingAt(vs).find(sender, clientId, now());
                if (resent != null) {
                    Exchange exchange = retransmission(transactions, vs, protocol, bytes, sender, clientId, d.frame(),
                            resent, answers);
                    return exchange.dropped() != null ? Direction.notSent(key, "dropped:" + exchange.dropped())
                            : new Direction(key, ended, exchange.real(), "retransmitted", exchange.answer(), List.of());
                }
            }
            if (transactions != null && transactions.rewritesTransactionId() && transactions.answersThroughDirector()
                    && transactions.fanOut(Unpooled.wrappedBuffer(bytes))) {
                Exchange exchange = fanOut(transactions, vs, protocol, bytes, sender, clientId, d.frame(), answers);
                return exchange.dropped() != null ? Direction.notSent(key, "dropped:" + exchange.dropped())
                        : new Direction(key, ended, exchange.real(), exchange.reason().tag(), exchange.answer(), List.of());
            }
            StickyBinding pinned = transactions == null ? null : transactions.route(Unpooled.wrappedBuffer(bytes));
            selection = pinned != null ? vs.selector().pinned(pinned)
                    : transactions == null ? flowsAt(vs).select(sender, key, vs.selector(), now())
                    : vs.selector().select(key, now());
        } catch (DecodeException e) {
            return Direction.notSent(key, "dropped:" + e.reason().name());
        }
        if (selection == null) {
            return Direction.notSent(key, "dropped:" + EngineDrops.NO_REAL_AVAILABLE.name());
        }
        Exchange exchange = transactions == null ? flowExchange(vs, protocol, bytes, sender, d.frame(), selection, answers)
                : exchange(transactions, vs, protocol, bytes, sender, clientId, d.frame(), key, selection, answers);
        if (exchange.dropped() != null) {
            return Direction.notSent(key, "dropped:" + exchange.dropped());
        }
        return new Direction(key, ended, exchange.real(), exchange.reason().tag(), exchange.answer(), exchange.refusedBy());
    }

    /**
     * What became of a request at the simulated reals: the real that kept it and why, how it was
     * answered ({@code captured}, {@code accepted}, or null when nothing answers through the
     * director), the reals that refused it for lack of resources; or the reason it was dropped.
     */
    private record Exchange(RealServer real, Selection.Reason reason, String answer, List<String> refusedBy,
                            String dropped) {

        static Exchange oneWay(Selection selection) {
            selection.real().requestSentOneWay();
            return new Exchange(selection.real(), selection.reason(), null, List.of(), null);
        }

        static Exchange dropped(String reason) {
            return new Exchange(null, null, null, List.of(), reason);
        }
    }

    /**
     * A request every real of the farm must see (TransactionPlugin.fanOut), as the live upstream
     * sends it: a copy to each real that serves its bound clients, in the farm's order; the first
     * answers with the capture's answer (the one relayed), the others take it silently.
     */
    private Exchange fanOut(TransactionPlugin plugin, VirtualServer vs, SignalingProtocol protocol, byte[] bytes,
                            InetSocketAddress sender, long clientId, int frame, CapturedAnswers answers) {
        Exchange first = null;
        for (RealServer real : director.farms().farm(vs.config().farm()).reals()) {
            if (!real.servesBoundClients()) {
                continue;
            }
            ByteBuf copy = Unpooled.wrappedBuffer(bytes.clone());
            long id = nextId(plugin, real);
            Object context;
            try {
                context = plugin.prepareRequest(copy, id, real, sender);
            } catch (DecodeException e) {
                continue; // that copy is dropped; the others go
            }
            real.requestForwarded();
            byte[] captured = first == null
                    ? answers.take(protocol, sender.getAddress(), MessageDirection.transactionId(protocol, bytes), frame)
                    : null;
            if (captured == null) {
                pendingAt(vs).add(sender, clientId, real, id, context, false, now());
                first = first != null ? first : new Exchange(real, Selection.Reason.FAN_OUT, "accepted", List.of(), null);
            } else {
                Exchange answered = answered(plugin, vs, protocol, copy, sender, clientId, null, real,
                        Selection.Reason.FAN_OUT, context, id, captured);
                first = new Exchange(real, Selection.Reason.FAN_OUT, answered.answer(), List.of(), null);
            }
        }
        return first != null ? first : Exchange.dropped(EngineDrops.NO_REAL_AVAILABLE.name());
    }

    /** A generic UDP request on its client's flow: the real answers with the capture's answer, or leaves it unanswered. */
    private Exchange flowExchange(VirtualServer vs, SignalingProtocol protocol, byte[] bytes, InetSocketAddress sender,
                                  int frame, Selection selection, CapturedAnswers answers) {
        byte[] captured = answers.take(protocol, sender.getAddress(), MessageDirection.transactionId(protocol, bytes),
                frame);
        if (captured != null) {
            answersUsed++;
        }
        flowsAt(vs).sent(sender, captured != null, now());
        return new Exchange(selection.real(), selection.reason(), captured != null ? "captured" : "accepted", List.of(),
                null);
    }

    /**
     * The request goes to the selected real as the live director sends it ({@code prepareRequest});
     * the real answers with the capture's answer to it, made its own ({@code simulateAnswerOf}), or
     * accepts when the capture has none; the answer goes through the plug-in's inspection as a live
     * answer does — a resource cause has the request resent to another real, Framed-IP-Addresses and
     * GTP sessions are learnt — and the simulated client learns what the director rewrote in it.
     */
    private Exchange exchange(TransactionPlugin plugin, VirtualServer vs, SignalingProtocol protocol, byte[] bytes,
                              InetSocketAddress sender, long clientId, int frame, StickyKey key, Selection selection,
                              CapturedAnswers answers) {
        RealServer real = selection.real();
        Selection.Reason reason = selection.reason();
        ByteBuf request = Unpooled.wrappedBuffer(bytes.clone());
        Object context;
        long directorId;
        try {
            if (!plugin.answersThroughDirector() || !plugin.expectsAnswer(request)) {
                plugin.prepareRequest(request, clientId & mask(plugin), real, sender);
                if (reason != Selection.Reason.STICKY) {
                    real.releaseClaim();
                }
                pendingAt(vs).add(sender, clientId, real, clientId & mask(plugin), null, true, now());
                return Exchange.oneWay(selection);
            }
            // As the live upstream: a fresh id of the director's, or the client's own where the plug-in keeps it.
            directorId = plugin.rewritesTransactionId() ? nextId(plugin, real) : clientId & mask(plugin);
            if (pendingAt(vs).pendingAt(real, directorId, now())) {
                real.releaseClaim();
                return Exchange.dropped(EngineDrops.PENDING_FULL.name());
            }
            context = plugin.prepareRequest(request, directorId, real, sender);
        } catch (DecodeException e) {
            real.releaseClaim();
            return Exchange.dropped(e.reason().name());
        }
        real.requestForwarded();
        byte[] captured = answers.take(protocol, sender.getAddress(), MessageDirection.transactionId(protocol, bytes),
                frame);
        if (captured == null) {
            pendingAt(vs).add(sender, clientId, real, directorId, context, false, now());
            return new Exchange(real, reason, "accepted", List.of(), null);
        }
        return answered(plugin, vs, protocol, request, sender, clientId, key, real, reason, context,
                MessageDirection.transactionId(protocol, request.array()), captured);
    }

    /**
     * A request sent again while its first sending is pending, as the live upstream resends it: to
     * the same real under the same director id, not balanced again; answered by the capture's answer
     * to it, if any.
     */
    private Exchange retransmission(TransactionPlugin plugin, VirtualServer vs, SignalingProtocol protocol, byte[] bytes,
                                    InetSocketAddress sender, long clientId, int frame, PendingRequests.Pending resent,
                                    CapturedAnswers answers) {
        RealServer real = resent.real();
        ByteBuf request = Unpooled.wrappedBuffer(bytes.clone());
        try {
            plugin.prepareRequest(request, resent.directorId(), real, sender);
        } catch (DecodeException e) {
            return Exchange.dropped(e.reason().name());
        }
        if (resent.oneWay()) {
            return new Exchange(real, Selection.Reason.STICKY, null, List.of(), null);
        }
        byte[] captured = answers.take(protocol, sender.getAddress(), MessageDirection.transactionId(protocol, bytes),
                frame);
        if (captured == null) {
            return new Exchange(real, Selection.Reason.STICKY, "accepted", List.of(), null);
        }
        pendingAt(vs).answered(sender, clientId, resent);
        return answered(plugin, vs, protocol, request, sender, clientId, null, real, Selection.Reason.STICKY,
                resent.context(), MessageDirection.transactionId(protocol, request.array()), captured);
    }

    /** The real answers with the capture's answer: inspected, refused elsewhere or relayed, as live. */
    /** @param prepared the request as sent to {@code real}; resent as it is after a refusal, as live */
    private Exchange answered(TransactionPlugin plugin, VirtualServer vs, SignalingProtocol protocol, ByteBuf prepared,
                              InetSocketAddress sender, long clientId, StickyKey key, RealServer real,
                              Selection.Reason reason, Object context, long forwardedId, byte[] captured) {
        answersUsed++;
        List<String> refusedBy = new ArrayList<>();
        ByteBuf answer = Unpooled.wrappedBuffer(captured.clone());
        try {
            plugin.simulateAnswerOf(answer, forwardedId, real, context);
            real.requestAnswered();
            ResponseVerdict verdict = plugin.inspectResponse(answer, real, context);
            if (verdict == ResponseVerdict.RETRY_ELSEWHERE) {
                // As TransactionUpstream.retryElsewhere: the refusing real fails, the request goes where
                // RealSelector.afterRefusal says; the capture has no answer from that real: it takes it.
                real.failInBand(now(), "refused a request for lack of resources (what-if)");
                Selection next = key == null || refusedBy.size() >= plugin.reassignLimit() ? null
                        : afterRefusal(plugin, vs, prepared, key);
                if (next != null && next.real() == real) {
                    next.real().releaseClaim();
                    next = null;
                }
                if (next != null) {
                    refusedBy.add(realName(real));
                    real = next.real();
                    long resentId = plugin.rewritesTransactionId() ? nextId(plugin, real) : clientId & mask(plugin);
                    Object resentContext = plugin.prepareRequest(prepared, resentId, real, sender);
                    real.requestForwarded();
                    pendingAt(vs).add(sender, clientId, real, resentId, resentContext, false, now());
                    reassignedAfterRefusal++;
                    return new Exchange(real, Selection.Reason.REASSIGNED, "accepted", refusedBy, null);
                }
                // no other real may take it: the refusal is relayed after all
            }
            if (verdict == ResponseVerdict.DROP) {
                answersDropped++;
                return new Exchange(real, reason, "captured", refusedBy, null);
            }
            byte[] asCaptured = captured.clone();
            plugin.prepareResponse(answer, clientId, context);
            clients.learn(protocol, asCaptured, answer);
        } catch (DecodeException e) {
            answersRefused.merge(e.reason().name(), 1, Integer::sum);
        }
        return new Exchange(real, reason, "captured", refusedBy, null);
    }

    private Selection afterRefusal(TransactionPlugin plugin, VirtualServer vs, ByteBuf prepared, StickyKey key) {
        try {
            return vs.selector().afterRefusal(plugin.route(prepared), key, now());
        } catch (DecodeException e) {
            return null;
        }
    }

    private static long mask(TransactionPlugin plugin) {
        return plugin.transactionIdBits() >= 40 ? 0xFF_FFFF_FFFFL : (1L << plugin.transactionIdBits()) - 1;
    }

    /** The director's next transaction id toward {@code real} (per real, like the live director's). */
    private long nextId(TransactionPlugin plugin, RealServer real) {
        return directorIds.merge(real, 1L, Long::sum) & mask(plugin);
    }
}
