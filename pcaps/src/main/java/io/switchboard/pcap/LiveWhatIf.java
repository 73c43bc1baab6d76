package io.switchboard.pcap;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.Director;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.VirtualServerListener;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTableFactory;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.DatagramService;
import io.switchboard.director.transport.Transports;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A live what-if run: the same captures as {@link WhatIf}, through a live {@link Director} — its
 * Netty UDP lanes on Vert.x's event loops, in this process, on loopback addresses the run picks
 * ({@link LoopbackLayout}) — with simulated reals ({@link LoopbackPeers}) that answer with the
 * capture's own answers, and a simulated requester per source of the captures that sends the
 * requests in order, as the capture's client would behind the director (it learnt the director's
 * TEIDs from the answers relayed to it, {@link SimulatedClients}). What became of each request is
 * observed from outside: which simulated real received it, the virtual server's counters in the
 * director's registry (drops by reason, how the real was chosen, answers refused), and what answer
 * came back. It prints the same lines and summary as an offline run ({@code whatif --live}), and
 * {@code whatif --compare} holds the two against each other.
 *
 * <p>One request at a time: each is sent, and its outcome awaited (within {@link #WAIT_NANOS}),
 * before the next. The director's clock is the capture's ({@link WhatIfRun#now}), moved only
 * between requests, and after each move the run waits for the lane's housekeeping at the new time
 * ({@link ObservedPlugin#housekeptAt}): what expires then (a request a real left unanswered because
 * the capture had no answer, an idle flow, a plug-in's timers) has expired before the next request,
 * so that a run is the same each time.
 */
public final class LiveWhatIf extends WhatIfRun implements AutoCloseable {

    /** How long an outcome may take to show: far beyond what loopback needs. */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);
    private static final long POLL_MILLIS = 2;

    private final LoopbackLayout layout = new LoopbackLayout();
    private final LoopbackPeers peers;
    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final Map<String, ObservedPlugin> plugins = new HashMap<>();
    private final Map<RealServer, String> configuredIds = new IdentityHashMap<>();
    private final Map<String, RealServer> realsByName = new HashMap<>();
    /** Each configured real's place in the configuration, farm by farm. */
    private final Map<String, Integer> realOrder = new HashMap<>();
    private final ObservedStickyTables tables = new ObservedStickyTables(StickyTableFactory.IN_MEMORY);
    private final Director director;
    private Vertx vertx;

    /**
     * Binds the simulated reals and starts the director; {@link #close} stops both.
     *
     * @throws IllegalArgumentException a {@code --fail} names no real, or the director cannot start
     * @throws IOException              a simulated real cannot be bound
     */
    public LiveWhatIf(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
                      List<WhatIfFailure> failures) throws IOException {
        super(config, failures);
        this.peers = new LoopbackPeers(layout);
        try {
            Map<String, InetSocketAddress> bound = new HashMap<>();
            Map<InetSocketAddress, String> configured = new HashMap<>();
            for (FarmConfig farm : config.farms().values()) {
                for (RealConfig real : farm.reals()) {
                    String name = farm.name() + "/" + real.endpoint();
                    realOrder.put(name, realOrder.size());
                    InetSocketAddress at = peers.openReal(name, real.address());
                    bound.put(name, at);
                    configured.put(at, real.endpoint().toString());
                }
            }
            this.director = new Director(LoopbackLayout.live(config, bound),
                    vs -> observed(services.apply(config.virtualServers().get(vs.name()))), registry,
                    this::directorNow, tables);
            for (ServerFarm farm : director.farms().all()) {
                for (RealServer real : farm.reals()) {
                    configuredIds.put(real, configured.get(real.address()));
                    realsByName.put(farm.name() + "/" + configured.get(real.address()), real);
                }
            }
            checkFailures();
            // One event loop: one lane per virtual server, whose housekeeping the run can wait for.
            this.vertx = Transports.preferred(config.transport()).newVertx(new VertxOptions().setEventLoopPoolSize(1));
            await(director.start(vertx));
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private static void await(Future<?> future) {
        try {
            future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("the live director cannot start: " + cause.getMessage(), cause);
        }
    }

    /**
     * The service with each plug-in it makes observed; the plug-in is made for the virtual server as
     * configured (its own addresses), as offline, while the director binds it on loopback.
     */
    private DatagramService observed(DatagramService service) {
        return new DatagramService() {
            @Override
            public ServiceSpec spec() {
                return service.spec();
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig vs) {
                return create(vs, new SimpleMeterRegistry());
            }

            @Override
            public DatagramPlugin create(VirtualServerConfig vs, MeterRegistry registry) {
                ObservedPlugin plugin = ObservedPlugin.of(service.create(config.virtualServers().get(vs.name()), registry));
                plugins.put(vs.name(), plugin);
                return plugin;
            }

            @Override
            public VirtualServerListener listener(VirtualServer virtualServer, Farms farms, Ticker ticker) {
                return service.listener(virtualServer, farms, ticker);
            }
        };
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
    protected MeterRegistry registry() {
        return registry;
    }

    @Override
    protected String realId(RealServer real) {
        return configuredIds.getOrDefault(real, real.id());
    }

    /** A client-address key names the capture's client, not its stand-in. */
    @Override
    protected String keyText(StickyKey key) {
        if (key.kind().equals(StickyKind.CLIENT_ADDRESS)) {
            try {
                InetAddress captured = layout.capturedRequester(InetAddress.getByAddress(key.value()));
                if (captured != null) {
                    return StickyKey.clientAddress(captured, 128).toString();
                }
            } catch (UnknownHostException e) {
                // not an address: printed as it is
            }
        }
        return key.toString();
    }

    /**
     * Waits until the lane of each virtual server has run its housekeeping at {@code nowNanos} (every
     * 20 ms of real time, the clock standing still meanwhile): what expires at that time — requests
     * its reals left unanswered (counted at the real, as in-band failure detection does), idle flows,
     * the plug-in's own timers — has expired before the next request, as on a director whose clock
     * ran, and the same each time.
     */
    @Override
    protected void housekeep(long nowNanos) {
        for (ObservedPlugin plugin : plugins.values()) {
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (plugin.housekeptAt() < nowNanos && System.nanoTime() - deadline < 0) {
                try {
                    peers.poll(POLL_MILLIS); // nothing is expected to arrive: a bounded wait
                } catch (IOException e) {
                    return;
                }
            }
        }
    }

    @Override
    protected Direction direct(VirtualServer vs, UdpDatagram d, SignalingProtocol protocol, byte[] bytes,
                               CapturedAnswers answers) {
        ObservedPlugin plugin = plugins.get(vs.name());
        plugin.startRequest();
        Exchange exchange = new Exchange(vs, plugin, d, protocol, bytes, answers);
        try {
            peers.sendFromRequester(exchange.source, bytes, director.localAddress(vs.name()));
            return exchange.await();
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            // a requester that cannot be bound, a datagram loopback cannot carry: named on the line
            return Direction.notSent(plugin.key(), "lost:" + e.getMessage());
        }
    }

    /** One request on its way: what the simulated peers saw of it so far. */
    private final class Exchange {

        final VirtualServer vs;
        final ObservedPlugin plugin;
        final ObservedTransactionPlugin transactions;
        final UdpDatagram d;
        final SignalingProtocol protocol;
        final byte[] bytes;
        final CapturedAnswers answers;
        final InetSocketAddress source;
        final DirectorCounters before;
        final List<String> refusedBy = new ArrayList<>();
        RealServer real;
        /** The capture's answer the real sent, null when none (yet). */
        byte[] captured;
        /** Copies of a fanned-out request yet to arrive at the other reals. */
        int copiesLeft;
        /** The outcome of a fanned-out request, waiting for its last copies. */
        Direction finished;

        Exchange(VirtualServer vs, ObservedPlugin plugin, UdpDatagram d, SignalingProtocol protocol, byte[] bytes,
                 CapturedAnswers answers) {
            this.vs = vs;
            this.plugin = plugin;
            this.transactions = plugin instanceof ObservedTransactionPlugin t ? t : null;
            this.d = d;
            this.protocol = protocol;
            this.bytes = bytes;
            this.answers = answers;
            this.source = new InetSocketAddress(d.source(), d.sourcePort());
            this.before = DirectorCounters.of(registry, vs.name());
        }

        Direction await() throws IOException {
            long deadline = System.nanoTime() + WAIT_NANOS;
            while (System.nanoTime() - deadline < 0) {
                List<LoopbackPeers.Arrival> arrivals = new ArrayList<>(peers.poll(POLL_MILLIS));
                // The copies of a fanned-out request leave in the farm's order: read them so.
                arrivals.sort(Comparator.comparingInt(a -> a.real() == null ? Integer.MAX_VALUE : realOrder.get(a.real())));
                for (LoopbackPeers.Arrival a : arrivals) {
                    Direction done = a.real() != null ? atReal(a) : source.equals(a.requester()) ? atRequester(a) : null;
                    if (done != null) {
                        return done;
                    }
                }
                Direction done = byCounters(DirectorCounters.of(registry, vs.name()));
                if (done != null) {
                    return done;
                }
            }
            return Direction.notSent(plugin.key(), "lost:no outcome within " + TimeUnit.NANOSECONDS.toSeconds(WAIT_NANOS) + " s");
        }

        private Direction direction(String answer) {
            return new Direction(plugin.key(), plugin.ended(), real, reason(), answer, List.copyOf(refusedBy));
        }

        /** How the real was chosen, as the director counted it. */
        private String reason() {
            DirectorCounters now = DirectorCounters.of(registry, vs.name());
            if (now.since(before, "reassigned") > 0) {
                return "reassigned";
            }
            String selection = now.grown(before, "selection:");
            return selection != null ? selection : now.since(before, "retransmitted") > 0 ? "retransmitted" : "unknown";
        }

        /** Whether the director sent the request to every real of the farm (TransactionPlugin.fanOut). */
        private boolean fannedOut() {
            return DirectorCounters.of(registry, vs.name()).since(before, "selection:" + Selection.Reason.FAN_OUT.tag()) > 0;
        }

        /**
         * An outcome, once every copy of a fanned-out request has arrived (the copies the run did not
         * wait for would be read as the next request's); until then null.
         */
        private Direction finish(Direction outcome) {
            if (copiesLeft > 0) {
                finished = outcome;
                return null;
            }
            return outcome;
        }

        /** A simulated real received the request (or, after a refusal, its resend, or a copy of it). */
        private Direction atReal(LoopbackPeers.Arrival a) throws IOException {
            RealServer at = realsByName.get(a.real());
            if (transactions != null && (!transactions.answersThroughDirector()
                    || !transactions.expectsAnswer())) {
                real = at;
                return direction(null); // answered elsewhere, or not at all
            }
            if (real != null && copiesLeft > 0) {
                copiesLeft--; // another real's copy: taken silently
                return copiesLeft == 0 ? finished : null;
            }
            if (real == null && fannedOut()) {
                copiesLeft = (int) director.farms().farm(vs.config().farm()).reals().stream()
                        .filter(RealServer::servesBoundClients).count() - 1;
            }
            if (real != null) {
                // Resent after the capture's refusal: the capture has no answer from this real.
                refusedBy.add(realName(real));
                real = at;
                reassignedAfterRefusal++;
                return unanswered();
            }
            real = at;
            captured = answers.take(protocol, d.source(), MessageDirection.transactionId(protocol, bytes), d.frame());
            if (captured == null) {
                return finish(unanswered());
            }
            answersUsed++;
            byte[] answer = captured.clone();
            if (transactions != null) {
                long id = MessageDirection.transactionId(protocol, a.payload());
                if (transactions.rewritesTransactionId()) {
                    MessageDirection.setTransactionId(protocol, answer, id);
                }
                try {
                    transactions.plugin().simulateAnswerOf(Unpooled.wrappedBuffer(answer), id, at,
                            transactions.context(at, id));
                } catch (DecodeException e) {
                    // sent as captured: the director refuses it with its reason
                }
            }
            peers.sendFromReal(a.real(), answer, a.from());
            return null;
        }

        /** The real takes it silently: the director keeps it pending until its response timeout. */
        private Direction unanswered() {
            return direction("accepted");
        }

        /** The requester received the director's answer: relayed from the real, or the director's own. */
        private Direction atRequester(LoopbackPeers.Arrival a) {
            if (real == null) {
                return Direction.notSent(null, "answered-locally");
            }
            if (captured != null) {
                clients.learn(protocol, captured, Unpooled.wrappedBuffer(a.payload()));
            }
            return finish(direction("captured"));
        }

        /** Outcomes that only the director's counters show: drops, answers it did not relay, relays to peers. */
        private Direction byCounters(DirectorCounters now) {
            String dropped = now.grown(before, "dropped:");
            if (dropped != null) {
                return Direction.notSent(plugin.key(), "dropped:" + dropped);
            }
            if (real != null && captured != null && now.since(before, "unmatched:dropped") > 0) {
                answersDropped++;
                return direction("captured");
            }
            if (real != null && captured != null && now.since(before, "unmatched:malformed") > 0) {
                String why = transactions.refused();
                answersRefused.merge(why == null ? "malformed" : why, 1, Integer::sum);
                return direction("captured");
            }
            if (real == null && now.since(before, "relayed") > 0 && now.since(before, "answered-locally") == 0) {
                return Direction.notSent(null, "relayed");
            }
            return null;
        }
    }

    @Override
    public void close() {
        if (vertx != null) {
            try {
                director.stop().eventually(() -> vertx.close()).toCompletionStage().toCompletableFuture()
                        .get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                // stopping: the sockets go with the process at worst
            }
            vertx = null;
        }
        peers.close();
    }
}
