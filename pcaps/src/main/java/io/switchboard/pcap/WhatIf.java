package io.switchboard.pcap;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.Director;
import io.switchboard.director.Selection;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.director.udp.DatagramService;
import io.switchboard.director.udp.ResponseVerdict;
import io.switchboard.director.udp.TransactionPlugin;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An offline what-if run: the requests of captures go through a configuration's virtual servers with
 * the engine of a live director — the same plug-ins ({@code classify}), the same
 * {@link io.switchboard.director.RealSelector}s, sticky tables and predictors, built by
 * {@link Director} — but no sockets, and a manual clock driven by the capture timestamps. The
 * simulated reals accept every request; a real can be taken out of service at a given frame
 * ({@link Failure}) to see where its subscribers go.
 *
 * <p>A request belongs to the virtual server whose port it was sent to, and address unless the
 * virtual server listens on a wildcard address. Answers ({@link MessageDirection}) are skipped.
 *
 * <p>Frames that cannot be read are reported as {@link Outcome#unreadable} and skipped.
 *
 * <p>A <em>stickiness violation</em> is a request whose key was last sent to another real that still
 * serves its bound clients, within the sticky idle time: its binding should have held.
 */
public final class WhatIf {

    /**
     * Takes {@code real} ({@code address:port} or {@code farm/address:port}) out of service at the
     * first request from {@code frame} on (of any capture), or, when {@code frame} is 0, from
     * {@code afterNanos} of capture time after the run's first frame.
     */
    public record Failure(String real, int frame, long afterNanos) {

        private static final java.util.regex.Pattern TIME = java.util.regex.Pattern.compile("\\+(\\d+)(ms|s|m|h)");

        /** Parses {@code REAL@FRAME} or {@code REAL@+TIME} ({@code +30s}, {@code +500ms}, {@code +5m}, {@code +1h}). */
        public static Failure parse(String text) {
            int at = text.lastIndexOf('@');
            if (at <= 0 || at == text.length() - 1) {
                throw new IllegalArgumentException("expected REAL@FRAME or REAL@+TIME, e.g. 10.0.0.2:1812@120 or 10.0.0.2:1812@+30s: " + text);
            }
            String when = text.substring(at + 1);
            java.util.regex.Matcher m = TIME.matcher(when);
            if (m.matches()) {
                long n = Long.parseLong(m.group(1));
                long nanos = switch (m.group(2)) {
                    case "ms" -> n * 1_000_000L;
                    case "s" -> n * 1_000_000_000L;
                    case "m" -> n * 60_000_000_000L;
                    default -> n * 3_600_000_000_000L;
                };
                return new Failure(text.substring(0, at), 0, nanos);
            }
            try {
                int frame = Integer.parseInt(when);
                if (frame < 1) {
                    throw new NumberFormatException();
                }
                return new Failure(text.substring(0, at), frame, 0);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a frame number (from 1) or +TIME (+30s) after @ in " + text);
            }
        }

        boolean due(int frame, long sinceStartNanos) {
            return this.frame > 0 ? frame >= this.frame : sinceStartNanos >= afterNanos;
        }
    }

    /**
     * One request's outcome.
     *
     * @param real   {@code farm/address:port}, null when dropped
     * @param reason {@code sticky}, {@code predictor}, {@code reassigned}, {@code backup} or
     *               {@code dropped:<reason>}
     */
    public record Outcome(String file, int frame, String vserver, String keyKind, String key, String real,
                          String reason, boolean violation, String error, String answer, List<String> refusedBy) {

        Outcome(String file, int frame, String vserver, String keyKind, String key, String real, String reason,
                boolean violation) {
            this(file, frame, vserver, keyKind, key, real, reason, violation, null, null, List.of());
        }

        /** A frame that could not be read (cut by the snap length, fragments that never completed). */
        static Outcome unreadable(String file, int frame, String error) {
            return new Outcome(file, frame, null, null, null, null, null, false, error, null, List.of());
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            if (file != null) {
                m.put("file", file);
            }
            m.put("frame", frame);
            if (error != null) {
                m.put("error", error);
                return m;
            }
            m.put("vserver", vserver);
            m.put("key_kind", keyKind);
            m.put("key", key);
            m.put("real", real);
            m.put("reason", reason);
            if (answer != null) {
                m.put("answer", answer);
            }
            if (!refusedBy.isEmpty()) {
                m.put("refused_by", refusedBy);
            }
            if (violation) {
                m.put("violation", true);
            }
            return m;
        }
    }

    private record Last(RealServer real, long nanos) {
    }

    private final Director director;
    private final List<Failure> failures;
    private final List<Failure> applied = new ArrayList<>();
    private long now = 1;
    private long fileBase;
    private final Map<String, Integer> perReal = new TreeMap<>();
    private final Map<String, Integer> reasons = new TreeMap<>();
    private final Map<StickyTable, Map<StickyKey, Last>> lastReal = new IdentityHashMap<>();
    private int requests;
    private int answersSkipped;
    private int unmatched;
    private int unreadable;
    private int bindings;
    private int bindingsLearnt;
    private int violations;
    private int answersUsed;
    private int answersUnused;
    private int answersDropped;
    private int reassignedAfterRefusal;
    private final Map<String, Integer> answersRefused = new TreeMap<>();
    private final Map<RealServer, Long> directorIds = new IdentityHashMap<>();
    /** What the clients of the capture learnt from the director's answers (GTP TEIDs). */
    private final SimulatedClients client = new SimulatedClients();

    /** @param services the plug-in of each virtual server (the launcher's {@code Services}) */
    public WhatIf(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
                  List<Failure> failures) {
        this.director = new Director(config, services, new SimpleMeterRegistry(), () -> now);
        this.failures = List.copyOf(failures);
        for (Failure f : failures) {
            if (find(f.real()) == null) {
                throw new IllegalArgumentException("--fail " + f.real()
                        + ": no such real (give address:port or farm/address:port)");
            }
        }
    }

    private RealServer find(String name) {
        for (ServerFarm farm : director.farms().all()) {
            for (RealServer real : farm.reals()) {
                if (name.equals(real.id()) || name.equals(real.farm() + "/" + real.id())) {
                    return real;
                }
            }
        }
        return null;
    }

    /**
     * Runs one capture; its clock starts where the previous capture's ended. Unreadable frames are
     * counted and skipped. The capture is read twice: first for its answers (the simulated reals
     * answer with them), then for its requests.
     *
     * @param label the file name printed with each outcome, or null
     */
    public void run(Path capture, String label, Consumer<Outcome> out) throws CaptureException {
        CapturedAnswers answers = answersOf(capture);
        UdpExtractor extractor = new UdpExtractor();
        Map<Integer, Instant> times = new HashMap<>();
        Instant[] first = {null};
        long base = fileBase;
        Consumer<CaptureEvent> events = event -> {
            Instant at = times.remove(event.frame());
            if (at != null && first[0] != null) {
                long t = base + java.time.Duration.between(first[0], at).toNanos();
                now = Math.max(now, t);
            }
            if (event instanceof UdpDatagram d) {
                datagram(d, answers, label, out);
            } else {
                unreadable++;
                out.accept(Outcome.unreadable(label, event.frame(), ((CaptureEvent.Unreadable) event).reason()));
            }
        };
        try (CaptureFile file = CaptureFile.open(capture)) {
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                if (first[0] == null) {
                    first[0] = frame.timestamp();
                }
                times.put(frame.number(), frame.timestamp());
                extractor.accept(frame, events);
                int oldest = frame.number() - 10_000;
                times.keySet().removeIf(n -> n < oldest);
            }
        }
        extractor.finish(events);
        answersUnused += answers.left();
        fileBase = now + 1_000_000;
    }

    /** The capture's answers; of a capture that cannot be read to its end, those before the break (the second pass reports it). */
    private static CapturedAnswers answersOf(Path capture) {
        CapturedAnswers answers = new CapturedAnswers();
        UdpExtractor extractor = new UdpExtractor();
        Consumer<CaptureEvent> events = e -> {
            if (e instanceof UdpDatagram d) {
                answers.offer(d);
            }
        };
        try (CaptureFile file = CaptureFile.open(capture)) {
            for (CaptureFrame frame = file.next(); frame != null; frame = file.next()) {
                extractor.accept(frame, events);
            }
        } catch (CaptureException e) {
            return answers;
        }
        extractor.finish(events);
        return answers;
    }

    private void datagram(UdpDatagram d, CapturedAnswers answers, String label, Consumer<Outcome> out) {
        VirtualServer vs = virtualServerFor(d.destination(), d.destinationPort());
        if (vs == null) {
            unmatched++;
            return;
        }
        SignalingProtocol protocol = SignalingProtocol.classify(d.sourcePort(), d.destinationPort(), d.payload());
        if (MessageDirection.isAnswer(protocol, d.payload())) {
            answersSkipped++;
            return;
        }
        applyFailures(d.frame());
        director.farms().tick(now);
        requests++;
        String name = vs.name();
        if (!vs.inService()) {
            emit(out, new Outcome(label, d.frame(), name, null, null, null, "dropped:out-of-service", false));
            return;
        }
        byte[] bytes = client.asSentToDirector(protocol, d.payload());
        InetSocketAddress sender = new InetSocketAddress(d.source(), d.sourcePort());
        TransactionPlugin transactions = vs.plugin() instanceof TransactionPlugin t ? t : null;
        StickyKey key;
        Selection selection;
        try {
            key = vs.plugin().classify(Unpooled.wrappedBuffer(bytes), sender);
            StickyBinding pinned = transactions == null ? null : transactions.route(Unpooled.wrappedBuffer(bytes));
            if (pinned != null) {
                RealServer holder = director.farms().real(pinned.farm(), pinned.real());
                selection = holder == null || !holder.servesBoundClients() ? null
                        : new Selection(holder, Selection.Reason.STICKY);
            } else {
                selection = vs.selector().select(key, now);
            }
        } catch (DecodeException e) {
            emit(out, new Outcome(label, d.frame(), name, null, null, null, "dropped:" + e.reason().name(), false));
            return;
        }
        if (selection == null) {
            emit(out, new Outcome(label, d.frame(), name, key.kind().configName(), key.toString(), null,
                    "dropped:" + DropReason.NO_REAL_AVAILABLE.name(), false));
            return;
        }
        StickyTable table = vs.selector().sticky();
        if (table != null && selection.reason() != Selection.Reason.STICKY && table.lookup(key, now) != null) {
            bindings++; // not when the table was full and refused it
        }
        long entriesBefore = table == null ? 0 : table.size();
        Exchange exchange = transactions == null ? Exchange.oneWay(selection)
                : exchange(transactions, vs, protocol, bytes, sender, d.frame(), key, selection, answers);
        if (exchange.dropped() != null) {
            emit(out, new Outcome(label, d.frame(), name, key.kind().configName(), key.toString(), null,
                    "dropped:" + exchange.dropped(), false));
            return;
        }
        RealServer real = exchange.real();
        if (table != null && table.size() > entriesBefore) {
            bindingsLearnt += (int) (table.size() - entriesBefore); // Framed-IP-Addresses from answers
        }
        boolean violation = false;
        if (table != null) {
            long idle = vs.config().sticky().orElseThrow().idle().toNanos();
            Map<StickyKey, Last> last = lastReal.computeIfAbsent(table, t -> new HashMap<>());
            Last before = last.put(key, new Last(real, now));
            violation = before != null && before.real() != real && before.real().servesBoundClients()
                    && now - before.nanos() < idle;
        }
        if (violation) {
            violations++;
        }
        String realName = real.farm() + "/" + real.id();
        perReal.merge(realName, 1, Integer::sum);
        emit(out, new Outcome(label, d.frame(), name, key.kind().configName(), key.toString(), realName,
                exchange.reason().tag(), violation, null, exchange.answer(), exchange.refusedBy()));
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
     * The request goes to the selected real as the live director sends it ({@code prepareRequest});
     * the real answers with the capture's answer to it, made its own ({@code simulateAnswerOf}), or
     * accepts when the capture has none; the answer goes through the plug-in's inspection as a live
     * answer does — a resource cause has the request resent to another real, Framed-IP-Addresses and
     * GTP sessions are learnt — and the simulated client learns what the director rewrote in it.
     */
    private Exchange exchange(TransactionPlugin plugin, VirtualServer vs, SignalingProtocol protocol, byte[] bytes,
                              InetSocketAddress sender, int frame, StickyKey key, Selection selection,
                              CapturedAnswers answers) {
        RealServer real = selection.real();
        Selection.Reason reason = selection.reason();
        ByteBuf request = Unpooled.wrappedBuffer(bytes.clone());
        long clientId;
        Object context;
        try {
            clientId = plugin.clientTransactionId(request);
            if (!plugin.answersThroughDirector() || !plugin.expectsAnswer(request)) {
                plugin.prepareRequest(request, clientId & mask(plugin), real, sender);
                if (reason != Selection.Reason.STICKY) {
                    real.releaseClaim();
                }
                return Exchange.oneWay(selection);
            }
            context = plugin.prepareRequest(request, nextId(plugin, real), real, sender);
        } catch (DecodeException e) {
            real.releaseClaim();
            return Exchange.dropped(e.reason().name());
        }
        real.requestForwarded();
        byte[] captured = answers.take(protocol, sender.getAddress(), MessageDirection.transactionId(protocol, bytes),
                frame);
        if (captured == null) {
            real.requestAnswered();
            return new Exchange(real, reason, "accepted", List.of(), null);
        }
        answersUsed++;
        List<String> refusedBy = new ArrayList<>();
        ByteBuf answer = Unpooled.wrappedBuffer(captured.clone());
        try {
            plugin.simulateAnswerOf(answer, MessageDirection.transactionId(protocol, request.array()), real, context);
            real.requestAnswered();
            ResponseVerdict verdict = plugin.inspectResponse(answer, real, context);
            if (verdict == ResponseVerdict.RETRY_ELSEWHERE) {
                // As TransactionUpstream does: the refusing real fails, the request goes to the real
                // the selector picks now; the capture has no answer from that one: it accepts.
                real.failInBand(now, "refused a request for lack of resources (what-if)");
                Selection next = refusedBy.size() < plugin.reassignLimit() ? vs.selector().select(key, now) : null;
                if (next != null && next.real() == real) {
                    next.real().releaseClaim();
                    next = null;
                }
                if (next != null) {
                refusedBy.add(real.farm() + "/" + real.id());
                real = next.real();
                reason = Selection.Reason.REASSIGNED;
                ByteBuf resent = Unpooled.wrappedBuffer(bytes.clone());
                plugin.prepareRequest(resent, nextId(plugin, real), real, sender);
                real.requestForwarded();
                real.requestAnswered();
                reassignedAfterRefusal++;
                return new Exchange(real, reason, "accepted", refusedBy, null);
                }
                // no other real may take it: the refusal is relayed after all
            }
            if (verdict == ResponseVerdict.DROP) {
                answersDropped++;
                return new Exchange(real, reason, "captured", refusedBy, null);
            }
            byte[] asCaptured = captured.clone();
            plugin.prepareResponse(answer, clientId, context);
            client.learn(protocol, asCaptured, answer);
        } catch (DecodeException e) {
            answersRefused.merge(e.reason().name(), 1, Integer::sum);
        }
        return new Exchange(real, reason, "captured", refusedBy, null);
    }

    private static long mask(TransactionPlugin plugin) {
        return plugin.transactionIdBits() >= 40 ? 0xFF_FFFF_FFFFL : (1L << plugin.transactionIdBits()) - 1;
    }

    /** The director's next transaction id toward {@code real} (per real, like the live director's). */
    private long nextId(TransactionPlugin plugin, RealServer real) {
        long id = directorIds.merge(real, 1L, Long::sum);
        return plugin.rewritesTransactionId() ? id & mask(plugin) : id;
    }

    private void emit(Consumer<Outcome> out, Outcome outcome) {
        reasons.merge(outcome.reason(), 1, Integer::sum);
        out.accept(outcome);
    }

    private void applyFailures(int frame) {
        for (Failure f : failures) {
            if (f.due(frame, now) && !applied.contains(f)) {
                applied.add(f);
                find(f.real()).takeOutOfService();
            }
        }
    }

    /** Exact address and port first, then a wildcard listener on the port. */
    private VirtualServer virtualServerFor(InetAddress address, int port) {
        VirtualServer wildcard = null;
        for (VirtualServer vs : director.virtualServers().values()) {
            VirtualServerConfig c = vs.config();
            if (c.listen().port() != port) {
                continue;
            }
            if (c.listen().address().equals(address)) {
                return vs;
            }
            if (c.listen().address().isAnyLocalAddress() && wildcard == null) {
                wildcard = vs;
            }
        }
        return wildcard;
    }

    public int violations() {
        return violations;
    }

    /** Requests per real, reasons, bindings created, violations, and what was skipped. */
    public Map<String, Object> summary() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("requests", requests);
        m.put("per_real", new LinkedHashMap<>(perReal));
        m.put("reasons", new LinkedHashMap<>(reasons));
        m.put("bindings_created", bindings);
        m.put("bindings_learnt_from_answers", bindingsLearnt);
        m.put("stickiness_violations", violations);
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
