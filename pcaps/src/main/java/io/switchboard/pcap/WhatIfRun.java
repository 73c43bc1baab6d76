package io.switchboard.pcap;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.Director;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What offline ({@link WhatIf}) and live ({@link LiveWhatIf}) what-if runs share, so that they print
 * the same lines and the same summary by the same rules: the capture played with its clock
 * ({@link CapturePlayback}), which virtual server of the configuration a datagram was sent to, answers
 * skipped, {@code --fail} applied, the requests as the capture's clients would send them behind the
 * director ({@link SimulatedClients}), stickiness judged ({@link StickinessAudit}) and everything
 * counted. How a request is directed is the subclass's: by the engine without sockets, or through a
 * live director.
 */
public abstract class WhatIfRun {

    /**
     * What became of one request.
     *
     * @param ended how its key's binding had ended when it was classified, or null
     * @param real  the real that kept it, null when it reached none
     */
    protected record Direction(StickyKey key, BindingEnd ended, RealServer real, String reason, String answer,
                               List<String> refusedBy) {

        static Direction notSent(StickyKey key, String reason) {
            return new Direction(key, null, null, reason, null, List.of());
        }
    }

    /** The configuration as given: its virtual servers' addresses and reals' names are the capture's. */
    protected final SwitchboardConfig config;
    private final List<WhatIfFailure> failures;
    private final List<WhatIfFailure> applied = new ArrayList<>();
    private final CapturePlayback playback = new CapturePlayback();
    private volatile long directorClock = 1;
    private final StickinessAudit audit = new StickinessAudit();
    /** What the clients of the capture learnt from the director's answers (GTP TEIDs). */
    protected final SimulatedClients clients = new SimulatedClients();
    private final Map<String, Integer> perReal = new TreeMap<>();
    private final Map<String, Integer> reasons = new TreeMap<>();
    private int requests;
    private int answersSkipped;
    private int unmatched;
    private int unreadable;
    private int bindings;
    private int bindingsLearnt;
    protected int answersUsed;
    private int answersUnused;
    protected int answersDropped;
    protected int reassignedAfterRefusal;
    protected final Map<String, Integer> answersRefused = new TreeMap<>();

    protected WhatIfRun(SwitchboardConfig config, List<WhatIfFailure> failures) {
        this.config = config;
        this.failures = List.copyOf(failures);
    }

    /** The director that directs the requests (its farms name the reals {@link #find} looks up). */
    protected abstract Director director();

    /** The director's sticky tables, as the run watches and sweeps them. */
    protected abstract ObservedStickyTables stickyTables();

    /** The director's meter registry. */
    protected abstract MeterRegistry registry();

    /** Checks that every {@code --fail} names a real; call once the director is built. */
    protected final void checkFailures() {
        for (WhatIfFailure f : failures) {
            if (find(f.real()) == null) {
                throw new IllegalArgumentException("--fail " + f.real()
                        + ": no such real (give address:port or farm/address:port)");
            }
        }
    }

    /** The real of {@code name} ({@code address:port} or {@code farm/address:port}, as configured). */
    private RealServer find(String name) {
        for (ServerFarm farm : director().farms().all()) {
            for (RealServer real : farm.reals()) {
                String id = realId(real);
                if (name.equals(id) || name.equals(real.farm() + "/" + id)) {
                    return real;
                }
            }
        }
        return null;
    }

    /** The configured {@code address:port} of a real of {@link #director()}. */
    protected String realId(RealServer real) {
        return real.id();
    }

    /** The text of a key as the capture's client would have it (its address, not a stand-in's). */
    protected String keyText(StickyKey key) {
        return key.toString();
    }

    /** The run's clock: capture time. */
    protected final long now() {
        return playback.now();
    }

    /**
     * The director's clock (its {@code Ticker}): the capture time of the request being directed,
     * moved to it once the farms' timers ran at that time.
     */
    protected final long directorNow() {
        return directorClock;
    }

    /**
     * Runs one capture; its clock starts where the previous capture's ended. Unreadable frames are
     * counted and skipped.
     *
     * @param label the file name printed with each outcome, or null
     */
    public void run(Path capture, String label, Consumer<WhatIfOutcome> out) throws CaptureException {
        CapturedAnswers left = playback.play(capture, new CapturePlayback.Handler() {
            @Override
            public void datagram(UdpDatagram datagram, CapturedAnswers answers) {
                WhatIfRun.this.datagram(datagram, answers, label, out);
            }

            @Override
            public void unreadable(int frame, String reason) {
                WhatIfRun.this.unreadable++;
                out.accept(WhatIfOutcome.unreadable(label, frame, reason));
            }
        });
        answersUnused += left.left();
    }

    private void datagram(UdpDatagram d, CapturedAnswers answers, String label, Consumer<WhatIfOutcome> out) {
        SignalingProtocol protocol = SignalingProtocol.classify(d.sourcePort(), d.destinationPort(), d.payload());
        if (MessageDirection.isAnswer(protocol, d.payload())) {
            // An answer comes from the side a virtual server stands for, to wherever its requester
            // sent from: recognised by its source (a GTP-C response from port 2123 to an SGW's 1024, a
            // Mobile IP Registration Reply from port 434), as a request is by its destination.
            if (virtualServerFor(d.source(), d.sourcePort()) != null
                    || virtualServerFor(d.destination(), d.destinationPort()) != null) {
                answersSkipped++;
            } else {
                unmatched++;
            }
            return;
        }
        VirtualServer vs = virtualServerFor(d.destination(), d.destinationPort());
        if (vs == null) {
            unmatched++;
            return;
        }
        applyFailures(d.frame());
        // The farms' timers first, then the director sees the new time (its lanes expire what is due
        // then): one order for both runs, though a live director's own timers fire when they like.
        director().farms().tick(now());
        directorClock = now();
        director().followReals(); // failure.purge and maxclients' counts, as the live timers
        stickyTables().sweep(now());
        housekeep(now());
        requests++;
        StickyTable table = vs.selector().sticky();
        if (table != null) {
            ObservedStickyTables.drainBound(table); // binds of before this request (a sweep, the last answer) are counted
        }
        Direction direction = direct(vs, d, protocol, clients.asSentToDirector(protocol, d.payload()), answers);
        String keyKind = direction.key() == null ? null : direction.key().kind().configName();
        String key = direction.key() == null ? null : keyText(direction.key());
        if (direction.real() == null) {
            emit(out, WhatIfOutcome.notSent(label, d.frame(), vs.name(), keyKind, key, direction.reason()));
            return;
        }
        StickinessAudit.Verdict verdict = StickinessAudit.Verdict.NONE;
        if (table != null) {
            boolean bound = false;
            for (StickyKey k : ObservedStickyTables.drainBound(table)) {
                if (k.equals(direction.key())) {
                    bound = true; // once per request, also when a refusal moved it to another real
                } else {
                    bindingsLearnt++; // Framed-IP-Addresses from answers
                }
            }
            if (bound) {
                bindings++;
            }
            long idle = vs.config().sticky().orElseThrow().idle().toNanos();
            verdict = audit.judge(table, direction.key(), direction.ended(), direction.real(), now(), idle);
        }
        String realName = direction.real().farm() + "/" + realId(direction.real());
        perReal.merge(realName, 1, Integer::sum);
        emit(out, new WhatIfOutcome(label, d.frame(), vs.name(), keyKind, key, realName, direction.reason(),
                verdict.violation(), null, direction.answer(), direction.refusedBy(), verdict.binding()));
    }

    /**
     * The timers the live director runs besides the farms' (the plug-ins' housekeeping: idle GTP
     * sessions, relayed requests), at {@code nowNanos}, before each request: both runs move time
     * at the same points.
     */
    protected abstract void housekeep(long nowNanos);

    /**
     * Directs one request of the capture, sent to {@code vs} of {@link #director()}.
     *
     * @param bytes the request as the capture's client sends it behind the director
     */
    protected abstract Direction direct(VirtualServer vs, UdpDatagram d, SignalingProtocol protocol, byte[] bytes,
            CapturedAnswers answers);

    /** The configured name of a real, {@code farm/address:port}. */
    protected final String realName(RealServer real) {
        return real.farm() + "/" + realId(real);
    }

    private void emit(Consumer<WhatIfOutcome> out, WhatIfOutcome outcome) {
        reasons.merge(outcome.reason(), 1, Integer::sum);
        out.accept(outcome);
    }

    private void applyFailures(int frame) {
        for (WhatIfFailure f : failures) {
            if (f.due(frame, now()) && !applied.contains(f)) {
                applied.add(f);
                find(f.real()).takeOutOfService();
            }
        }
    }

    /**
     * The virtual server of {@link #director()} that a datagram was sent to, by the configuration's
     * addresses: exact address and port first, then a wildcard listener on the port.
     */
    private VirtualServer virtualServerFor(InetAddress address, int port) {
        VirtualServerConfig wildcard = null;
        for (VirtualServerConfig c : config.virtualServers().values()) {
            if (c.listen().port() != port) {
                continue;
            }
            if (c.listen().address().equals(address)) {
                return director().virtualServers().get(c.name());
            }
            if (c.listen().address().isAnyLocalAddress() && wildcard == null) {
                wildcard = c;
            }
        }
        return wildcard == null ? null : director().virtualServers().get(wildcard.name());
    }

    public int violations() {
        return audit.violations();
    }

    /**
     * Each real as the director's registry shows it now, by {@code farm/address:port} as configured:
     * its state, requests sent, answered, unanswered, times failed, connections in flight, weight,
     * and open {@code gtp-inspect} sessions — what the lines and the summary do not show of how the
     * run left the reals, which {@code --compare} holds against the other run's too.
     */
    public Map<String, Map<String, Object>> realsAtEnd() {
        Map<String, Map<String, Object>> reals = new TreeMap<>();
        MeterRegistry registry = registry();
        for (ServerFarm farm : director().farms().all()) {
            for (RealServer real : farm.reals()) {
                Map<String, Object> m = new LinkedHashMap<>();
                for (Gauge state : registry.find("switchboard.real.state").tags("farm", farm.name(), "real", real.id())
                        .gauges()) {
                    if (state.value() == 1) {
                        m.put("state", state.getId().getTag("state"));
                    }
                }
                for (String counter : List.of("requests", "answered", "unanswered", "failures")) {
                    FunctionCounter c = registry.find("switchboard.real." + counter)
                            .tags("farm", farm.name(), "real", real.id()).functionCounter();
                    m.put(counter, c == null ? null : Math.round(c.count()));
                }
                for (String gauge : List.of("connections", "weight")) {
                    Gauge g = registry.find("switchboard.real." + gauge).tags("farm", farm.name(), "real", real.id()).gauge();
                    m.put(gauge, g == null ? null : Math.round(g.value()));
                }
                long sessions = Math.round(registry.find("switchboard.gtp.sessions.open").tag("real", real.id()).gauges()
                        .stream().mapToDouble(Gauge::value).sum());
                m.put("gtp_sessions_open", sessions);
                reals.put(realName(real), m);
            }
        }
        return reals;
    }

    /** Requests per real, reasons, bindings created and ended, violations, and what was skipped. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requests);
        m.put("per_real", new LinkedHashMap<>(perReal));
        m.put("reasons", new LinkedHashMap<>(reasons));
        m.put("bindings_created", bindings);
        m.put("bindings_learnt_from_answers", bindingsLearnt);
        Map<String, Integer> ended = audit.bindingsEnded();
        if (!ended.isEmpty()) {
            m.put("bindings_ended", ended);
        }
        m.put("stickiness_violations", audit.violations());
        m.put("answers_skipped", answersSkipped);
        m.put("answers_used", answersUsed);
        m.put("answers_unused", answersUnused);
        if (!answersRefused.isEmpty()) {
            m.put("answers_refused", new LinkedHashMap<>(answersRefused));
        }
        if (answersDropped > 0) {
            m.put("answers_dropped", answersDropped);
        }
        m.put("reassigned_after_refusal", reassignedAfterRefusal);
        m.put("not_for_a_virtual_server", unmatched);
        m.put("unreadable_frames", unreadable);
        return m;
    }
}
