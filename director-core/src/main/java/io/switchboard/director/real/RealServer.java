package io.switchboard.director.real;

import io.switchboard.director.spi.RealView;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.spi.RealKey;
import io.switchboard.director.sticky.StickyBinding;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One real server of a farm: its address, weights, connection count, counters and state machine
 * (see {@link RealState}). Shared by every event loop, so state moves by compare-and-set and
 * counters are adders; the hot path reads a volatile and maybe one CAS.
 */
public final class RealServer implements RealView {

    private static final Logger LOG = LoggerFactory.getLogger(RealServer.class);

    private final String farm;
    private final String id;
    /**
     * The binding that names this real, one object for every key stuck to it: a sticky table of a
     * million keys then points at a few bindings that stay in the CPU cache, not a million copies.
     */
    private final StickyBinding binding;
    private final int slot;
    private final InetSocketAddress address;
    private volatile int staticWeight; // changed by a reload: configureWeight
    /** The plug-ins' values for this real ({@link RealConfig#values()}); a reload may change them. */
    private volatile Map<RealKey<?>, Object> values;
    private volatile int weight;
    private volatile int maxConns;
    private final AtomicReference<RealState> state;
    private final AtomicInteger connections = new AtomicInteger();
    private final RealFailures failures;
    private volatile boolean probesFailing;
    private volatile Runnable onCandidacyChange = () -> { };
    private final SlowStart slowStart = new SlowStart();
    private volatile RealStateListener stateListener = RealStateListener.NONE;
    private final RealDraining draining = new RealDraining();
    private final NewWorkLimits limits;

    private final LongAdder forwarded = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder unanswered = new LongAdder();

    /**
     * @param slot a number unique among all reals of this director, used to key pending
     *             transactions without hashing the address
     */
    public RealServer(String farm, RealConfig config, FailureDetection failure, int slot) {
        this.farm = farm;
        this.address = config.endpoint().socketAddress();
        this.id = config.endpoint().toString();
        this.binding = new StickyBinding(farm, id);
        this.slot = slot;
        this.staticWeight = config.weight();
        this.values = config.values();
        this.weight = config.weight();
        this.maxConns = config.maxconns().orElse(Integer.MAX_VALUE);
        this.failures = new RealFailures(failure);
        this.limits = new NewWorkLimits(config.limits());
        this.state = new AtomicReference<>(config.inService() ? RealState.OPERATIONAL : RealState.OUTOFSERVICE);
    }

    public String farm() {
        return farm;
    }

    /** {@code address:port}, unique within its farm. */
    public String id() {
        return id;
    }

    /** The sticky binding to this real (equal to any other binding with its farm and id). */
    public StickyBinding binding() {
        return binding;
    }

    public int slot() {
        return slot;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** What a plug-in's own key of the real says (RADIUS's {@code secret}), empty when it is not configured. */
    public <T> Optional<T> value(RealKey<T> key) {
        return key.in(values);
    }

    public RealState state() {
        return state.get();
    }

    public int weight() {
        return weight;
    }

    public int staticWeight() {
        return staticWeight;
    }

    /** How long a FAILED real waits before it is offered a test request. */
    public long retryNanos() {
        return failures.retryNanos();
    }

    public int maxConns() {
        return maxConns;
    }

    public int connections() {
        return connections.get();
    }

    public long forwarded() {
        return forwarded.sum();
    }

    public long answered() {
        return answered.sum();
    }

    public long unanswered() {
        return unanswered.sum();
    }

    /** How many times this real has moved to FAILED. */
    public long failures() {
        return failures.count();
    }

    public int consecutiveFailures() {
        return failures.consecutive();
    }

    /** Called when the set of reals that a predictor may consider changes; the farm rebuilds. */
    public void onCandidacyChange(Runnable listener) {
        this.onCandidacyChange = listener;
    }

    /** Where this node's own administrative changes, weights and failures of this real are reported. */
    public void stateListener(RealStateListener listener) {
        this.stateListener = listener;
    }

    /** May a predictor keep this real in its snapshot? Throttles are checked per pick instead. */
    public boolean isCandidate() {
        RealState s = state.get();
        return weight > 0 && (s == RealState.OPERATIONAL || s == RealState.MAXCONNS_THROTTLED
                || s == RealState.MAXCLIENTS_THROTTLED || s == RealState.READY_TO_TEST);
    }

    /**
     * Claims this real for one new subscriber or flow. A READY_TO_TEST real is claimed once and
     * moves to TESTING, so exactly one test request reaches it. {@code rate} and {@code maxclients}
     * ({@link NewWorkLimits}) are decided here, for every predictor, live and in what-if.
     */
    public boolean tryTakeNewWork() {
        RealState s = state.get();
        if (s == RealState.OPERATIONAL) {
            return connections.get() < maxConns && (!slowStart.running() || slowStart.turn()) && limits.admit();
        }
        if (s == RealState.MAXCLIENTS_THROTTLED) {
            return limits.refuseThrottled();
        }
        return s == RealState.READY_TO_TEST && move(RealState.READY_TO_TEST, RealState.TESTING);
    }

    /** Its {@code rate} and {@code maxclients}, their counts and refusals. */
    public NewWorkLimits limits() {
        return limits;
    }

    /** This node bound a new sticky client to the real (toward {@code maxclients}). */
    public void clientBound() {
        limits.clientBound(this::move);
    }

    /** The live bindings naming the real, counted over every sticky table (off the event loops). */
    public void clientsCounted(long count) {
        limits.clientsCounted(count, this::move);
    }

    /** Whether the farm purges what is bound to the real when it fails (IOS {@code failaction purge}). */
    public boolean purgesOnFailure() {
        return failures.purges();
    }

    /** Sets the slow-start time of this real (its farm's {@code slow-start}). */
    public void slowStart(java.time.Duration time) {
        slowStart.duration(time);
    }

    /** Is the real in its slow-start time? */
    public boolean slowStarting() {
        return slowStart.running();
    }

    /**
     * Gives back a claim from {@link #tryTakeNewWork()} that was not used (the request went
     * elsewhere or was dropped): a real claimed for its test request is offered again.
     */
    public void releaseClaim() {
        move(RealState.TESTING, RealState.READY_TO_TEST);
    }

    public boolean servesBoundClients() {
        RealState s = state.get();
        // Past its drain's deadline nothing may stay on the real: no binding, and no flow or
        // retransmission that names it on its own either.
        return s.servesBoundClients() && (s != RealState.DRAINING || !draining.pastDeadline());
    }

    /** A request was sent to this real and now awaits its answer. */
    public void requestForwarded() {
        forwarded.increment();
        if (connections.incrementAndGet() >= maxConns) {
            move(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED);
        }
    }

    /**
     * A long-lived session opened on this real (a GTP session in {@code gtp-inspect}): it counts as a
     * connection until {@link #sessionClosed()}, so that least connections balances by open sessions
     * and {@code maxconns} caps them, as IOS SLB does for GTP.
     */
    public void sessionOpened() {
        if (connections.incrementAndGet() >= maxConns) {
            move(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED);
        }
    }

    /** A session of {@link #sessionOpened()} ended. */
    public void sessionClosed() {
        closeConnection();
    }

    /** A request was sent to this real that is answered elsewhere (not through the director). */
    public void requestSentOneWay() {
        forwarded.increment();
    }

    /** The real answered a request. */
    public void requestAnswered() {
        answered.increment();
        closeConnection();
        failures.answered();
        RealState next = serving();
        if (move(RealState.TESTING, next)) {
            LOG.info("real {} of farm {} answered its test request: {}", id, farm, next);
        }
    }

    /**
     * A request expired unanswered.
     *
     * @param client who sent it, for the distinct-clients condition; any value with equals/hashCode
     */
    public void requestUnanswered(Object client, long nowNanos) {
        unanswered.increment();
        closeConnection();
        if (failures.unanswered(client, state.get() == RealState.TESTING)) {
            failInBand(nowNanos, "requests unanswered");
        }
    }

    private void closeConnection() {
        if (connections.decrementAndGet() < maxConns) {
            move(RealState.MAXCONNS_THROTTLED, RealState.OPERATIONAL);
        }
    }

    /**
     * Fails the real at once, for an in-band reason (unanswered requests, or a GTP answer with a
     * resource cause: IOS SLB's cause-code inspection). The retry timer starts as for any failure.
     */
    public void failInBand(long nowNanos, String why) {
        RealState from = failures.fail(state, this::move, nowNanos, RealFailures.IN_BAND);
        if (from != null) {
            LOG.warn("real {} of farm {} failed: {} ({} -> FAILED)", id, farm, why, from);
            stateListener.failed(this);
        }
    }

    /** Advances timers: a FAILED real whose retry timer ran out becomes READY_TO_TEST. */
    public void tick(long nowNanos) {
        slowStart.tick(nowNanos);
        limits.tick(nowNanos);
        if (state.get() == RealState.FAILED && failures.retryDue(nowNanos)
                && move(RealState.FAILED, RealState.READY_TO_TEST)) {
            LOG.info("real {} of farm {}: retry timer expired, READY_TO_TEST", id, farm);
        }
    }

    /**
     * The verdict of the farm's probes: failing takes the real out of rotation (PROBE_FAILED, bound
     * clients reassigned) from any state but OUTOFSERVICE; passing again restores it.
     */
    public void probesFailing(boolean failing) {
        this.probesFailing = failing;
        if (failing) {
            for (RealState s = state.get(); s != RealState.OUTOFSERVICE && s != RealState.PROBE_FAILED; s = state.get()) {
                if (move(s, RealState.PROBE_FAILED)) {
                    LOG.warn("real {} of farm {} failed its probes ({} -> PROBE_FAILED)", id, farm, s);
                    return;
                }
            }
        } else {
            failures.reset();
            RealState next = draining.current() != null ? RealState.DRAINING : serving();
            if (move(RealState.PROBE_FAILED, next)) {
                LOG.info("real {} of farm {} passes its probes again", id, farm);
            }
        }
    }

    /** A status check answered a zombie ({@link RealState#zombie()}): back in service at once. */
    public boolean revive() {
        RealState from = failures.revive(state, this::move, serving());
        if (from != null) {
            LOG.info("real {} of farm {} answered a status check ({} -> in service)", id, farm, from);
        }
        return from != null;
    }

    public boolean probesFailing() {
        return probesFailing;
    }

    /**
     * Another node detected a failure of this real (shared through the cluster): FAILED here too, with
     * the retry timer counted from {@code failedAtNanos} (this node's clock), so that every node
     * tests the real again at about the same time. A real waiting for its test goes back to FAILED.
     * Not reported to the {@link RealStateListener}.
     */
    public void applyFailure(long failedAtNanos) {
        RealState from = failures.fail(state, this::move, failedAtNanos, RealFailures.FROM_CLUSTER);
        if (from != null) {
            LOG.warn("real {} of farm {} failed on another node ({} -> FAILED)", id, farm, from);
        }
    }

    /** Administrative {@code no inservice}: no new work, bound clients reassigned. */
    public void takeOutOfService() {
        outOfService();
        stateListener.adminChanged(this, false);
    }

    /** Administrative {@code inservice}: from OUTOFSERVICE, or forcing a FAILED real back. */
    public void putInService() {
        inService();
        stateListener.adminChanged(this, true);
    }

    /**
     * Administrative drain: no new subscribers, flows or sessions, while its bound clients and sessions
     * go on (DRAINING) until {@code inservice}. A real failing its probes stays PROBE_FAILED and drains
     * once they pass. Draining again replaces the drain (a new deadline).
     *
     * @return false, with nothing changed, when the real is out of service (nothing to drain)
     */
    public boolean drain(RealDrain newDrain) {
        boolean started = startDrain(newDrain);
        if (started) {
            stateListener.drainStarted(this, newDrain.deadlineMillis());
        }
        return started;
    }

    /** A drain started on another node; not reported to the {@link RealStateListener}. */
    public boolean applyDrain(RealDrain newDrain) {
        return startDrain(newDrain);
    }

    /** The drain in effect, null when the real is not draining. */
    public RealDrain currentDrain() {
        return draining.current();
    }

    private boolean startDrain(RealDrain newDrain) {
        RealState from = draining.start(state, this::move, newDrain);
        if (from != null) {
            LOG.info("real {} of farm {} draining ({} -> {})", id, farm, from,
                    from == RealState.PROBE_FAILED ? from : RealState.DRAINING);
        }
        return from != null;
    }

    /**
     * A reload's new plug-in values (a RADIUS {@code secret}) and failure detection; the real's state,
     * weights and counters stay. (Its weight, maxconns and inservice have reload changes of their own.)
     */
    public void reconfigure(RealConfig config, FailureDetection failure) {
        if (!config.endpoint().toString().equals(id)) {
            throw new IllegalArgumentException("real " + id + " cannot become " + config.endpoint());
        }
        this.values = config.values();
        limits.configure(config.limits());
        failures.configure(failure);
    }

    /** Sets the dynamic weight (API or feedback agent); 0 throttles the real to its bound clients. */
    public void setWeight(int newWeight) {
        weight(newWeight);
        stateListener.weightChanged(this, newWeight);
    }

    /**
     * A reload's new static weight (1..255). The running weight follows it unless a dynamic weight is
     * in effect (differs from the old static one: set by the API, feedback or another node), which
     * stays until set again; a weight that follows is reported like a dynamic one, so nodes direct alike.
     *
     * @return whether the running weight followed
     */
    public boolean configureWeight(int newStaticWeight) {
        boolean follows = weight == staticWeight;
        staticWeight = newStaticWeight;
        if (follows) {
            setWeight(newStaticWeight);
        }
        return follows;
    }

    /** A reload's new {@code maxconns} ({@link Integer#MAX_VALUE}: none); this node's own limit, not shared. */
    public void configureMaxConns(int newMaxConns) {
        maxConns = newMaxConns;
        if (connections.get() >= newMaxConns) {
            move(RealState.OPERATIONAL, RealState.MAXCONNS_THROTTLED);
        } else {
            move(RealState.MAXCONNS_THROTTLED, RealState.OPERATIONAL);
        }
    }

    /** An administrative change made on another node; not reported to the {@link RealStateListener}. */
    public void applyAdmin(boolean inService) {
        if (inService) {
            inService();
        } else {
            outOfService();
        }
    }

    /** A weight set on another node; not reported to the {@link RealStateListener}. */
    public void applyWeight(int newWeight) {
        weight(newWeight);
    }

    private void outOfService() {
        draining.clear();
        RealState previous = state.getAndSet(RealState.OUTOFSERVICE);
        if (previous != RealState.OUTOFSERVICE) {
            LOG.info("real {} of farm {} taken out of service", id, farm);
            onCandidacyChange.run();
        }
    }

    private void inService() {
        draining.clear();
        RealState s = state.get();
        if (s == RealState.OUTOFSERVICE || s == RealState.FAILED || s == RealState.READY_TO_TEST
                || s == RealState.DRAINING) {
            failures.reset();
            RealState next = probesFailing ? RealState.PROBE_FAILED : serving();
            if (move(s, next)) {
                LOG.info("real {} of farm {} put in service: {}", id, farm, next);
            }
        }
    }

    private void weight(int newWeight) {
        if (newWeight < 0 || newWeight > 255) {
            throw new IllegalArgumentException("weight must be 0..255: " + newWeight);
        }
        int old = this.weight;
        this.weight = newWeight;
        if (newWeight == 0) {
            move(RealState.OPERATIONAL, RealState.DFP_THROTTLED);
            move(RealState.MAXCONNS_THROTTLED, RealState.DFP_THROTTLED);
        } else {
            move(RealState.DFP_THROTTLED, RealState.OPERATIONAL);
        }
        if (old != newWeight) {
            onCandidacyChange.run();
        }
    }

    /** The state of a real in service that takes work: throttled to its bound clients at weight 0. */
    private RealState serving() {
        return weight == 0 ? RealState.DFP_THROTTLED : RealState.OPERATIONAL;
    }

    private boolean move(RealState from, RealState to) {
        if (!state.compareAndSet(from, to)) {
            return false;
        }
        // Back from out of service, a failure or failed probes: slow start. A throttle lifting is not.
        if (to == RealState.OPERATIONAL && slowStart.configured() && from != RealState.MAXCONNS_THROTTLED
                && from != RealState.MAXCLIENTS_THROTTLED && from != RealState.DFP_THROTTLED) {
            slowStart.begin();
        }
        boolean candidacyChanged = !RealState.throttleFlip(from, to);
        if (candidacyChanged) {
            onCandidacyChange.run();
        }
        return true;
    }

    @Override
    public String toString() {
        return farm + "/" + id + "[" + state.get() + "]";
    }
}
