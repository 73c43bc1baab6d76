package io.switchboard.director.dfp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node as a DFP agent (draft-eck-dfp-01 §3.1; IOS {@code ip dfp agent}): a manager in front of
 * several sites connects to it, and it sends that manager a Preference Information message (§6.1)
 * with the capacity of each virtual server at once and then every {@code interval}, or at half the
 * keep-alive time a DFP Parameters message asked for (§5.3, §7.2) if that is shorter. A Server State
 * message is logged only (§6.2, §7.4); a BindID Request is answered by the BindID Report that says
 * there is no table (§6.5).
 */
public final class DfpAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DfpAgent.class);

    private final Vertx vertx;
    private final DfpConfig.AgentListener config;
    private final DfpWire wire;
    private final DfpCapacity capacity;
    private final MeterRegistry registry;
    private NetServer server;

    public DfpAgent(Vertx vertx, DfpConfig config, DfpCapacity capacity, MeterRegistry registry) {
        this.vertx = vertx;
        this.config = config.agent().orElseThrow();
        this.wire = new DfpWire(config.password());
        this.capacity = capacity;
        this.registry = registry;
    }

    /** Listens; the future has the bound address (an ephemeral port resolved). */
    public Future<SocketAddress> start() {
        server = vertx.createNetServer().connectHandler(this::manager);
        return server.listen(config.listen().port(), config.listen().address().getHostAddress())
                .map(s -> SocketAddress.inetSocketAddress(s.actualPort(), config.listen().address().getHostAddress()));
    }

    private void manager(NetSocket socket) {
        String name = socket.remoteAddress().hostAddress() + ":" + socket.remoteAddress().port();
        DfpMeters.count(registry, DfpMeters.AGENT, name, "connected");
        LOG.info("DFP manager {} connected", name);
        Session session = new Session(socket, name);
        socket.handler(new DfpFraming(session::received, e -> {
            DfpMeters.count(registry, DfpMeters.AGENT, name, "malformed");
            LOG.warn("DFP manager {}: unreadable stream, closing: {}", name, e.getMessage());
            socket.close();
        }));
        socket.closeHandler(v -> {
            session.stop();
            LOG.info("DFP manager {} disconnected", name);
        });
        session.report();
        session.schedule(config.interval().toMillis());
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }

    private final class Session {
        final NetSocket socket;
        final String name;
        long timer = -1;

        Session(NetSocket socket, String name) {
            this.socket = socket;
            this.name = name;
        }

        void schedule(long periodMs) {
            stop();
            timer = vertx.setPeriodic(Math.max(1, periodMs), id -> report());
        }

        void stop() {
            if (timer >= 0) {
                vertx.cancelTimer(timer);
                timer = -1;
            }
        }

        void report() {
            socket.write(Buffer.buffer(wire.encode(DfpMessage.preferences(capacity.loads()))));
            DfpMeters.count(registry, DfpMeters.AGENT, name, "report");
        }

        void received(byte[] frame) {
            DfpMessage m;
            try {
                m = wire.decode(frame);
            } catch (DfpException e) {
                DfpMeters.count(registry, DfpMeters.AGENT, name, e.security() ? "security" : "malformed");
                LOG.warn("DFP manager {}: message ignored: {}", name, e.getMessage());
                return;
            }
            switch (m.type()) {
                case DfpMessage.DFP_PARAMETERS -> {
                    Optional<Long> keepAlive;
                    try {
                        keepAlive = m.keepAliveSeconds();
                    } catch (DfpException e) {
                        DfpMeters.count(registry, DfpMeters.AGENT, name, "malformed");
                        return;
                    }
                    long period = config.interval().toMillis();
                    if (keepAlive.isPresent() && keepAlive.get() > 0) {
                        // §5.3: report at least within the keep-alive time; half of it leaves a margin.
                        period = Math.min(period, keepAlive.get() * 1000 / 2);
                    }
                    schedule(period);
                    DfpMeters.count(registry, DfpMeters.AGENT, name, "parameters");
                }
                case DfpMessage.SERVER_STATE -> {
                    LOG.info("DFP manager {} reports server state: {} Load TLVs", name, m.tlvs().size());
                    DfpMeters.count(registry, DfpMeters.AGENT, name, "server-state");
                }
                case DfpMessage.BIND_ID_REQUEST -> {
                    socket.write(Buffer.buffer(wire.encode(new DfpMessage(DfpMessage.BIND_ID_REPORT,
                            List.of(new DfpMessage.Tlv(DfpMessage.TLV_BIND_ID_TABLE, noMoreBindIds()))))));
                    DfpMeters.count(registry, DfpMeters.AGENT, name, "bind-id-report");
                }
                default -> DfpMeters.count(registry, DfpMeters.AGENT, name, "ignored");
            }
        }
    }

    /** §6.5: the BindID Table TLV with a zero server address, port, protocol and number of entries. */
    private static byte[] noMoreBindIds() {
        return ByteBuffer.allocate(12).array();
    }
}
