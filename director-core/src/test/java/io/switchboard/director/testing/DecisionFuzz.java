package io.switchboard.director.testing;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.real.RealServer;
import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.Set;

/**
 * The rules a plug-in's decision fuzz target (issue 22: {@code *FuzzTest}, {@code benchmarks/fuzz/run.sh}) checks
 * after every datagram it puts through the engine ({@link EngineHarness}), beyond "nothing but a DecodeException
 * escapes" (the engine catches those and counts them): every datagram has exactly one counted outcome, a drop is
 * counted under its reason and sends nothing, what is sent to a real goes to a real of the farm under an id the
 * plug-in's width holds, and what leaves the virtual address goes to a peer the target allows. The plug-in's own
 * properties (re-signing, restored ids, bytes left alone) are the target's to check on {@link Outcome#toReals} and
 * {@link Outcome#toClients}.
 */
public final class DecisionFuzz {

    private DecisionFuzz() {
    }

    /**
     * The farms' failure detection in a target that reuses its engine: in-band detection off, since the requests each
     * input leaves pending expire unanswered ({@link #settle}) and would otherwise fail every real within a few inputs
     * (in-band detection has tests of its own).
     */
    public static final io.switchboard.director.config.FailureDetection NO_INBAND =
            new io.switchboard.director.config.FailureDetection(8, 2, java.time.Duration.ofSeconds(60), false, false);

    /**
     * After an input of a target that reuses its engine (one per set-up: building one per input made the targets
     * run at a few hundred inputs a second): the clock past every response timeout and the lane's housekeeping, so
     * that what this input left pending has expired before the next, then the records forgotten.
     */
    public static void settle(EngineHarness engine, Runnable advancePastTimeouts) {
        advancePastTimeouts.run();
        engine.housekeep();
        engine.forget();
    }

    /** What one datagram caused: the engine's records after it (new entries from these indexes on). */
    public record Outcome(EngineHarness engine, int toRealsFrom, int toClientsFrom, int dropsFrom) {

        public java.util.List<EngineHarness.ToReal> toReals() {
            return engine.toReals().subList(toRealsFrom, engine.toReals().size());
        }

        public java.util.List<EngineHarness.ToClient> toClients() {
            return engine.toClients().subList(toClientsFrom, engine.toClients().size());
        }

        public boolean dropped() {
            return engine.drops().size() > dropsFrom;
        }
    }

    // What the engine counts for a datagram to the virtual address (Intake, TransactionEngine, OneWay, Overloaded):
    // exactly one of these per datagram.
    private static final String[] CLIENT_OUTCOMES = {"switchboard.requests.forwarded",
        "switchboard.requests.retransmitted", "switchboard.dropped", "switchboard.requests.answered.locally",
        "switchboard.responses.relayed"};
    // ... and for a datagram from a real at a director socket: at least one (a real's request answering a
    // peer's triggering request is counted as relayed and triggered).
    private static final String[] REAL_OUTCOMES = {"switchboard.responses.relayed", "switchboard.responses.unmatched",
        "switchboard.responses.absorbed", "switchboard.requests.reassigned", "switchboard.dropped",
        "switchboard.real.requests.relayed", "switchboard.real.requests.retransmitted"};

    /**
     * {@code datagram} from {@code client} to the virtual address, checked.
     *
     * @param peers where a datagram from the virtual address may go besides {@code client} (relays to peers)
     */
    public static Outcome fromClient(EngineHarness engine, ByteBuf datagram, InetSocketAddress client,
            Set<InetSocketAddress> peers, int idBits) {
        MeterRegistry registry = engine.registry();
        double received = sum(registry, "switchboard.requests.received");
        double[] before = sums(registry, CLIENT_OUTCOMES);
        double dropped = sum(registry, "switchboard.dropped");
        Outcome outcome = new Outcome(engine, engine.toReals().size(), engine.toClients().size(), engine.drops().size());
        engine.fromClient(datagram, client);
        check(sum(registry, "switchboard.requests.received") == received + 1, "the datagram is counted as received");
        double[] after = sums(registry, CLIENT_OUTCOMES);
        double outcomes = 0;
        for (int i = 0; i < after.length; i++) {
            outcomes += after[i] - before[i];
        }
        check(outcomes == 1, "exactly one counted outcome, not " + outcomes + " (" + names(before, after) + ")");
        checkDrops(engine, outcome, dropped);
        if (outcome.dropped()) {
            check(outcome.toReals().isEmpty() && outcome.toClients().isEmpty(), "a dropped datagram is not sent");
        }
        checkToReals(engine, outcome, idBits);
        for (EngineHarness.ToClient c : outcome.toClients()) {
            check(c.to().equals(client) || peers.contains(c.to()), "sent from the virtual address to " + c.to()
                    + ", neither the client nor a peer");
        }
        return outcome;
    }

    /**
     * {@code datagram} from {@code from} at director socket {@code socket}, checked; whatever is relayed from the
     * virtual address goes to {@code client} (the only one the target has requests pending for) or a peer.
     */
    public static Outcome fromReal(EngineHarness engine, ByteBuf datagram, InetSocketAddress from, int socket,
            InetSocketAddress client, Set<InetSocketAddress> peers, int idBits) {
        MeterRegistry registry = engine.registry();
        double[] before = sums(registry, REAL_OUTCOMES);
        double dropped = sum(registry, "switchboard.dropped");
        Outcome outcome = new Outcome(engine, engine.toReals().size(), engine.toClients().size(), engine.drops().size());
        engine.fromReal(datagram, from, socket);
        double[] after = sums(registry, REAL_OUTCOMES);
        double outcomes = 0;
        for (int i = 0; i < after.length; i++) {
            outcomes += after[i] - before[i];
        }
        check(outcomes >= 1, "a datagram from a real without a counted outcome (" + names(before, after) + ")");
        checkDrops(engine, outcome, dropped);
        checkToReals(engine, outcome, idBits);
        for (EngineHarness.ToClient c : outcome.toClients()) {
            check(c.to().equals(client) || peers.contains(c.to()), "an answer relayed to " + c.to()
                    + ", which sent no request");
        }
        return outcome;
    }

    private static void checkDrops(EngineHarness engine, Outcome outcome, double droppedBefore) {
        int told = engine.drops().size() - outcome.dropsFrom();
        check(sum(engine.registry(), "switchboard.dropped") - droppedBefore == told,
                "every drop told is counted under its reason, and only those");
    }

    private static void checkToReals(EngineHarness engine, Outcome outcome, int idBits) {
        Set<RealServer> reals = farmReals(engine);
        for (EngineHarness.ToReal sent : outcome.toReals()) {
            check(reals.contains(sent.real()), "sent to " + sent.real().id() + ", not a real of the farms");
            check(idBits >= 64 || sent.transactionId() >>> idBits == 0,
                    "director id " + sent.transactionId() + " wider than " + idBits + " bits");
        }
    }

    private static Set<RealServer> farmReals(EngineHarness engine) {
        java.util.HashSet<RealServer> reals = new java.util.HashSet<>();
        Collection<ServerFarm> farms = engine.farms().all();
        for (ServerFarm farm : farms) {
            reals.addAll(farm.reals());
        }
        return reals;
    }

    private static double[] sums(MeterRegistry registry, String[] names) {
        double[] sums = new double[names.length];
        for (int i = 0; i < names.length; i++) {
            sums[i] = sum(registry, names[i]);
        }
        return sums;
    }

    private static double sum(MeterRegistry registry, String name) {
        double sum = 0;
        for (Counter c : registry.find(name).counters()) {
            sum += c.count();
        }
        return sum;
    }

    private static String names(double[] before, double[] after) {
        StringBuilder s = new StringBuilder();
        String[] names = before.length == CLIENT_OUTCOMES.length ? CLIENT_OUTCOMES : REAL_OUTCOMES;
        for (int i = 0; i < names.length; i++) {
            if (after[i] != before[i]) {
                s.append(s.length() == 0 ? "" : ", ").append(names[i]).append(" +").append(after[i] - before[i]);
            }
        }
        return s.length() == 0 ? "none" : s.toString();
    }

    /** An AssertionError rather than AssertJ's: a fuzz target checks these millions of times. */
    public static void check(boolean rule, String what) {
        if (!rule) {
            throw new AssertionError(what);
        }
    }
}
