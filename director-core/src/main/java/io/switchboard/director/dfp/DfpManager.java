package io.switchboard.director.dfp;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.real.Farms;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node as DFP manager (draft-eck-dfp-01 §3.1, §7.1; IOS {@code ip slb dfp} / {@code agent}): it
 * opens a TCP connection to each configured agent, tells it the keep-alive time (§7.2), and gives
 * the weights of its Preference Information messages (§6.1) to the reals ({@link DfpWeights}). An
 * agent silent for longer than its {@code timeout} is disconnected (§5.3). When a connection ends,
 * or cannot be opened, the agent's reals get their static weights back (§7.1) and the manager tries
 * again every {@code retry-interval}, at most {@code retry-count} times in a row (0: for ever).
 *
 * <p>Everything runs on one Vert.x context, so that {@link DfpWeights} sees one thread.
 */
public final class DfpManager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DfpManager.class);

    /** The agent states of CISCO-SLB-MIB's DFP agent table, as far as they apply. */
    public enum AgentState { CONNECTING, OPEN, TRYING, FAILED }

    private final Vertx vertx;
    private final Context context;
    private final NetClient client;
    private final DfpWire wire;
    private final DfpWeights weights;
    private final MeterRegistry registry;
    private final List<Agent> agents = new ArrayList<>();
    private volatile boolean closed;

    public DfpManager(Vertx vertx, DfpConfig config, Farms farms, MeterRegistry registry) {
        this.vertx = vertx;
        this.context = vertx.getOrCreateContext();
        this.client = vertx.createNetClient(new NetClientOptions().setConnectTimeout(10_000));
        this.wire = new DfpWire(config.password());
        this.weights = new DfpWeights(farms, config, registry);
        this.registry = registry;
        config.agents().forEach(a -> agents.add(new Agent(a)));
    }

    /** Opens the connections (attempts run in the background). */
    public DfpManager start() {
        context.runOnContext(v -> agents.forEach(Agent::connect));
        return this;
    }

    /** The state of the agent named {@code ADDRESS:PORT}. */
    public AgentState state(String agent) {
        return agents.stream().filter(a -> a.name.equals(agent)).findFirst().orElseThrow().state;
    }

    @Override
    public void close() {
        closed = true;
        context.runOnContext(v -> agents.forEach(a -> {
            if (a.socket != null) {
                a.socket.close();
            }
        }));
        client.close();
    }

    private final class Agent {
        final DfpConfig.Agent config;
        final String name;
        volatile AgentState state = AgentState.CONNECTING;
        NetSocket socket;
        int failedAttempts;
        long lastHeardNanos;
        long keepAliveTimer = -1;

        Agent(DfpConfig.Agent config) {
            this.config = config;
            this.name = config.name();
        }

        void connect() {
            if (closed) {
                return;
            }
            state = AgentState.CONNECTING;
            client.connect(config.port(), config.address().getHostAddress()).onComplete(ar -> {
                if (ar.failed()) {
                    DfpMeters.count(registry, DfpMeters.CONNECTIONS, name, "failed");
                    LOG.warn("DFP agent {}: cannot connect: {}", name, ar.cause().getMessage());
                    retry();
                    return;
                }
                opened(ar.result());
            });
        }

        void opened(NetSocket s) {
            if (closed) {
                s.close();
                return;
            }
            socket = s;
            state = AgentState.OPEN;
            failedAttempts = 0;
            lastHeardNanos = System.nanoTime();
            DfpMeters.count(registry, DfpMeters.CONNECTIONS, name, "open");
            LOG.info("DFP agent {}: connected", name);
            s.handler(new DfpFraming(this::received, e -> {
                DfpMeters.count(registry, DfpMeters.MESSAGES, name, "malformed");
                LOG.warn("DFP agent {}: unreadable stream, closing: {}", name, e.getMessage());
                s.close();
            }));
            s.closeHandler(v -> lost());
            s.exceptionHandler(e -> LOG.debug("DFP agent {}: {}", name, e.getMessage()));
            // §7.2: the manager reports the keep-alive time to the agent.
            s.write(Buffer.buffer(wire.encode(DfpMessage.parameters(config.timeout().toSeconds()))));
            long timeoutMs = config.timeout().toMillis();
            if (timeoutMs > 0) {
                keepAliveTimer = vertx.setPeriodic(Math.max(50, timeoutMs / 4), id -> {
                    if (System.nanoTime() - lastHeardNanos > TimeUnit.MILLISECONDS.toNanos(timeoutMs)) {
                        // §5.3: no update within the keep-alive time: close and connect again.
                        DfpMeters.count(registry, DfpMeters.CONNECTIONS, name, "expired");
                        LOG.warn("DFP agent {}: nothing for {} ms, closing", name, timeoutMs);
                        vertx.cancelTimer(id);
                        s.close();
                    }
                });
            }
        }

        void received(byte[] frame) {
            lastHeardNanos = System.nanoTime();
            DfpMessage m;
            try {
                m = wire.decode(frame);
            } catch (DfpException e) {
                // §5.1: with a password configured, a message without its Security TLV is ignored.
                DfpMeters.count(registry, DfpMeters.MESSAGES, name, e.security() ? "security" : "malformed");
                LOG.warn("DFP agent {}: message ignored: {}", name, e.getMessage());
                return;
            }
            if (m.type() != DfpMessage.PREFERENCE_INFORMATION) {
                // §4: a message type not understood is discarded; the others are not the agent's to send.
                DfpMeters.count(registry, DfpMeters.MESSAGES, name, "ignored");
                return;
            }
            List<DfpLoad> loads;
            try {
                loads = m.loads();
            } catch (DfpException e) {
                DfpMeters.count(registry, DfpMeters.MESSAGES, name, "malformed");
                LOG.warn("DFP agent {}: Preference Information ignored: {}", name, e.getMessage());
                return;
            }
            // §6.1: without a Load TLV the message is an application keep-alive.
            DfpMeters.count(registry, DfpMeters.MESSAGES, name, loads.isEmpty() ? "keep-alive" : "weights");
            loads.forEach(load -> weights.apply(name, load));
        }

        void lost() {
            if (keepAliveTimer >= 0) {
                vertx.cancelTimer(keepAliveTimer);
                keepAliveTimer = -1;
            }
            socket = null;
            int reverted = weights.revert(name);
            if (closed) {
                return;
            }
            DfpMeters.count(registry, DfpMeters.CONNECTIONS, name, "lost");
            LOG.warn("DFP agent {}: connection lost; {} reals back to their static weights", name, reverted);
            retry();
        }

        void retry() {
            if (closed) {
                return;
            }
            failedAttempts++;
            if (config.retryCount() > 0 && failedAttempts > config.retryCount()) {
                state = AgentState.FAILED;
                DfpMeters.count(registry, DfpMeters.CONNECTIONS, name, "gave-up");
                LOG.error("DFP agent {}: given up after {} attempts (retry-count)", name, config.retryCount());
                return;
            }
            state = AgentState.TRYING;
            vertx.setTimer(Math.max(1, config.retryInterval().toMillis()), id -> context.runOnContext(v -> connect()));
        }
    }
}
