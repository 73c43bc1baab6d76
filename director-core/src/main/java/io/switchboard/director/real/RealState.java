package io.switchboard.director.real;

/**
 * States of a real server, named as IOS SLB shows them in {@code show ip slb reals}.
 *
 * <pre>
 *   OPERATIONAL ──N unanswered from M clients──▶ FAILED ──retry timer──▶ READY_TO_TEST
 *        ▲  │                                      ▲                          │ first new request
 *        │  └─connections ≥ maxconns─▶ MAXCONNS_THROTTLED                     ▼
 *        └──────────────── answer ◀──────────────────────────────────────── TESTING ──unanswered──▶ FAILED
 *   any ──admin out of service──▶ OUTOFSERVICE ──admin in service──▶ OPERATIONAL
 *   any but OUTOFSERVICE ──admin drain──▶ DRAINING ──admin in service──▶ OPERATIONAL
 * </pre>
 *
 * <p>DRAINING keeps what the real serves (its sticky bindings, its sessions) and takes nothing new;
 * failed probes move it to PROBE_FAILED, and passing again brings it back to DRAINING. Past its
 * drain's deadline the real serves no bound clients either ({@code RealServer#servesBoundClients}).
 *
 * <p>A probe with status checks ({@link io.switchboard.director.config.ZombieChecks}, FreeRADIUS's
 * {@code home_server}) reads FAILED, READY_TO_TEST and TESTING as "zombie" ({@link #zombie()}): one
 * answer revives it (OPERATIONAL), none for the zombie period makes it "dead" (PROBE_FAILED), and a
 * dead real needs several answers in a row to come back.
 */
public enum RealState {
    OPERATIONAL(true, true),
    OUTOFSERVICE(false, false),
    FAILED(false, false),
    /** Retry timer ran out: the next new request is sent here as a test. */
    READY_TO_TEST(true, false),
    /** One test request is in flight; nothing else new until it is answered or expires. */
    TESTING(false, true),
    MAXCONNS_THROTTLED(false, true),
    MAXCLIENTS_THROTTLED(false, true),
    /** Dynamic feedback (or the API) set the weight to 0. */
    DFP_THROTTLED(false, true),
    PROBE_FAILED(false, false),
    /** Administrative drain: bound clients and sessions stay, nothing new ({@link RealDrain}). */
    DRAINING(false, true);

    private final boolean takesNewWork;
    private final boolean servesBoundClients;

    RealState(boolean takesNewWork, boolean servesBoundClients) {
        this.takesNewWork = takesNewWork;
        this.servesBoundClients = servesBoundClients;
    }

    /** May the predictor choose this real for a new subscriber or flow? */
    public boolean takesNewWork() {
        return takesNewWork;
    }

    /** May subscribers already bound to this real still be sent to it? */
    public boolean servesBoundClients() {
        return servesBoundClients;
    }

    /** Failed in band, up to its test request: FreeRADIUS's "zombie" ({@link io.switchboard.director.config.ZombieChecks}). */
    public boolean zombie() {
        return this == FAILED || this == READY_TO_TEST || this == TESTING;
    }

    /** The name as IOS prints it. */
    public String displayName() {
        return name();
    }

    /**
     * OPERATIONAL ⇄ MAXCONNS/MAXCLIENTS_THROTTLED flip often and predictors check them per pick
     * ({@link RealServer#tryTakeNewWork}): no predictor rebuild.
     */
    static boolean throttleFlip(RealState from, RealState to) {
        return from == OPERATIONAL && (to == MAXCONNS_THROTTLED || to == MAXCLIENTS_THROTTLED)
                || (from == MAXCONNS_THROTTLED || from == MAXCLIENTS_THROTTLED) && to == OPERATIONAL;
    }
}
