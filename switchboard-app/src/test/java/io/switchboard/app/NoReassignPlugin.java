package io.switchboard.app;

import io.switchboard.director.spi.RealRequests;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.RealView;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import java.net.InetSocketAddress;

/**
 * A planted divergence for {@link CaptureConformanceIT}: a transaction plug-in exactly as built, but
 * with {@code reassignLimit} 0, so a create its real refuses for lack of resources is not resent to
 * another real. Used in one run of {@code --compare} only.
 */
final class NoReassignPlugin implements TransactionPlugin<Object> {

    private final TransactionPlugin<Object> plugin;

    @SuppressWarnings("unchecked")
    private NoReassignPlugin(TransactionPlugin<?> plugin) {
        this.plugin = (TransactionPlugin<Object>) plugin;
    }

    /** {@code service} with each transaction plug-in it makes wrapped. */
    static DatagramService service(DatagramService service) {
        return new DatagramService() {
            @Override
            public ServiceSpec spec() {
                return service.spec();
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig config) {
                return wrap(service.create(config));
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig config, MeterRegistry registry) {
                return wrap(service.create(config, registry));
            }

            @Override
            public VirtualServerListener listener(VirtualServer virtualServer, Farms farms, Ticker ticker) {
                return service.listener(virtualServer, farms, ticker);
            }
        };
    }

    private static DatagramPlugin wrap(DatagramPlugin plugin) {
        return plugin instanceof TransactionPlugin<?> t ? new NoReassignPlugin(t) : plugin;
    }

    @Override
    public int reassignLimit() {
        return 0; // the planted change
    }

    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        return plugin.decide(datagram, sender, alloc);
    }

    @Override
    public void attach(PluginContext context) {
        plugin.attach(context);
    }

    @Override
    public void realRestarted(RealView real) {
        plugin.realRestarted(real);
    }

    @Override
    public void housekeep(long nowNanos) {
        plugin.housekeep(nowNanos);
    }

    @Override
    public boolean lengthensRequests() {
        return plugin.lengthensRequests();
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
        return plugin.prepareRequest(request, transactionId, real, client);
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        return plugin.responseTransactionId(response);
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Object context) throws DecodeException {
        plugin.prepareResponse(response, clientTransactionId, context);
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealView real, Object context) throws DecodeException {
        return plugin.inspectResponse(response, real, context);
    }

    @Override
    public void simulateAnswerOf(ByteBuf answer, long transactionId, RealView real, Object context)
            throws DecodeException {
        plugin.simulateAnswerOf(answer, transactionId, real, context);
    }
}
