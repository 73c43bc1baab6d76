package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.ClientStreams;
import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.RealStreams;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.RealView;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import io.switchboard.director.sticky.StickyKey;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ObservedPlugin} for a plug-in that keeps transactions: besides, what {@code prepareRequest}
 * kept for each request forwarded to a real (by real and director transaction id), and the reason an
 * answer was refused ({@code inspectResponse} or {@code prepareResponse} failed).
 */
final class ObservedTransactionPlugin extends ObservedPlugin implements TransactionPlugin<Object> {

    private final TransactionPlugin<Object> plugin;
    private final Map<String, Object> contexts = new ConcurrentHashMap<>();
    private volatile String refused;

    @SuppressWarnings("unchecked")
    ObservedTransactionPlugin(TransactionPlugin<?> plugin) {
        super(plugin);
        this.plugin = (TransactionPlugin<Object>) plugin;
    }

    @Override
    TransactionPlugin<Object> plugin() {
        return plugin;
    }

    @Override
    void startRequest() {
        super.startRequest();
        refused = null;
        contexts.clear();
    }

    /** What {@code prepareRequest} returned for the request forwarded to {@code real} under {@code transactionId}. */
    Object context(RealServer real, long transactionId) {
        return contexts.get(real.id() + "#" + transactionId);
    }

    /** The reason the plug-in refused the last answer, or null. */
    String refused() {
        return refused;
    }

    @Override
    public int transactionIdBits() {
        return plugin.transactionIdBits();
    }

    @Override
    public boolean rewritesTransactionId() {
        return plugin.rewritesTransactionId();
    }

    @Override
    public boolean answersThroughDirector() {
        return plugin.answersThroughDirector();
    }

    @Override
    public int upstreamSockets() {
        return plugin.upstreamSockets();
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client)
            throws DecodeException {
        return observed(plugin.prepareRequest(request, transactionId, real, client), real, transactionId);
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealView real, InetSocketAddress client,
            StickyKey key) throws DecodeException {
        return observed(plugin.prepareRequest(request, transactionId, real, client, key), real, transactionId);
    }

    private Object observed(Object context, RealView real, long transactionId) {
        if (context != null) {
            contexts.put(real.id() + "#" + transactionId, context);
        }
        return context;
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        return plugin.responseTransactionId(response);
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Object context) throws DecodeException {
        try {
            plugin.prepareResponse(response, clientTransactionId, context);
        } catch (DecodeException e) {
            refused = e.reason().name();
            throw e;
        }
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealView real, Object context) throws DecodeException {
        try {
            return plugin.inspectResponse(response, real, context);
        } catch (DecodeException e) {
            refused = e.reason().name();
            throw e;
        }
    }

    @Override
    public void simulateAnswerOf(ByteBuf answer, long transactionId, RealView real, Object context)
            throws DecodeException {
        plugin.simulateAnswerOf(answer, transactionId, real, context);
    }

    @Override
    public Decision fromReal(ByteBuf datagram, InetSocketAddress sender) throws DecodeException {
        return plugin.fromReal(datagram, sender);
    }

    @Override
    public RealRequests<?> realRequests() {
        return plugin.realRequests();
    }

    @Override
    public int reassignLimit() {
        return plugin.reassignLimit();
    }

    @Override
    public int responseGrowth() {
        return plugin.responseGrowth();
    }

    /**
     * None, on purpose: what-if replays the datagrams of a capture, and its simulated reals answer by datagram.
     * A RadSec real is reached there as a datagram real (the decisions are the plug-in's either way).
     */
    @Override
    public RealStreams realStreams() {
        return null;
    }

    /** None, on purpose: what-if's clients are the capture's, sending datagrams; no TLS listener is opened. */
    @Override
    public ClientStreams clientStreams() {
        return null;
    }

    /** The plug-in's own refusal of new work under overload: what-if answers what the live director would. */
    @Override
    public ByteBuf overloadAnswer(ByteBuf request, io.netty.buffer.ByteBufAllocator alloc) throws DecodeException {
        return plugin.overloadAnswer(request, alloc);
    }

    /** The plug-in's own answer to a request it acknowledges itself (RADIUS {@code accounting-local-ack}). */
    @Override
    public ByteBuf acknowledgment(Object context, io.netty.buffer.ByteBufAllocator alloc) {
        return plugin.acknowledgment(context, alloc);
    }
}
