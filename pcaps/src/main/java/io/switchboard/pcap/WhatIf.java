package io.switchboard.pcap;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.director.Director;
import io.switchboard.director.Selection;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTableFactory;
import io.switchboard.director.spi.DatagramService;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * An offline what-if run: the requests of captures go through a configuration's virtual servers with
 * the engine of a live director — the same plug-ins, {@link io.switchboard.director.RealSelector}s,
 * sticky tables and predictors, built by {@link Director}, and the same lane engine
 * ({@link io.switchboard.director.transaction.Intake}, {@link io.switchboard.director.transaction.TransactionEngine}
 * or {@link io.switchboard.director.transaction.FlowEngine}: pinned sessions, retransmissions,
 * pending requests and their timeout, resends after a refusal, fan-out) — with no sockets behind it
 * ({@link OfflineLane}) and a manual clock driven by the capture timestamps. The simulated reals
 * answer with the capture's answers or take a request silently; a real can be taken out of service
 * at a given frame ({@link WhatIfFailure}) to see where its subscribers go. {@link LiveWhatIf} runs
 * the same captures through a live director, sockets and all, and must agree line by line
 * ({@code whatif --compare}).
 *
 * <p>A request belongs to the virtual server whose port it was sent to, and address unless the
 * virtual server listens on a wildcard address. Answers ({@link MessageDirection}) are skipped.
 * Frames that cannot be read are reported as {@link WhatIfOutcome#unreadable} and skipped. A request
 * is a stickiness violation as {@link StickinessAudit} judges it.
 */
public final class WhatIf extends WhatIfRun {

    private final ObservedStickyTables tables = new ObservedStickyTables(StickyTableFactory.IN_MEMORY);
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final Director director;
    private final Map<String, OfflineLane> lanes = new HashMap<>();

    /** @param services the plug-in of each virtual server (the launcher's {@code Services}) */
    public WhatIf(SwitchboardConfig config, Function<VirtualServerConfig, DatagramService> services,
                  List<WhatIfFailure> failures) {
        super(config, failures);
        this.director = new Director(config, services, registry, this::directorNow, tables);
        checkFailures();
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
    protected SimpleMeterRegistry registry() {
        return registry;
    }

    @Override
    protected void housekeep(long nowNanos) {
        for (VirtualServer vs : director.virtualServers().values()) {
            laneOf(vs).housekeep(nowNanos);
        }
    }

    private OfflineLane laneOf(VirtualServer vs) {
        return lanes.computeIfAbsent(vs.name(), n -> new OfflineLane(vs, director.farms(), this::directorNow));
    }

    /**
     * As a live lane takes a datagram sent to the virtual address; the first real it goes to answers
     * with the capture's answer to it, if the capture has one, and the simulated client learns what
     * the director rewrote in the answer relayed.
     */
    @Override
    protected Direction direct(VirtualServer vs, UdpDatagram d, SignalingProtocol protocol, byte[] bytes,
                               CapturedAnswers answers) {
        OfflineLane lane = laneOf(vs);
        InetSocketAddress sender = new InetSocketAddress(d.source(), d.sourcePort());
        ByteBuf request = Unpooled.copiedBuffer(bytes);
        try {
            Decision.Direct decision = lane.admit(request, sender);
            if (decision == null) {
                return Direction.notSent(null, lane.answeredLocally ? "answered-locally"
                        : lane.relayedToPeer ? "relayed" : "dropped:" + lane.dropped.name());
            }
            StickyKey key = decision.key();
            BindingEnd ended = ObservedStickyTables.ended(vs.selector().sticky(), key, now());
            lane.direct(request, sender, decision, now());
            if (lane.dropped != null || lane.real == null) {
                return Direction.notSent(key, "dropped:" + (lane.dropped == null ? "unknown" : lane.dropped.name()));
            }
            String answer = null;
            if (lane.awaitsAnswer()) {
                byte[] captured = answers.take(protocol, sender.getAddress(),
                        MessageDirection.transactionId(protocol, bytes), d.frame());
                answer = captured == null ? "accepted" : "captured";
                if (captured != null) {
                    answersUsed++;
                    lane.answer(protocol, captured);
                    learnFrom(lane, protocol, captured);
                    if (!lane.refusedBy.isEmpty()) {
                        answer = "accepted"; // resent elsewhere: the capture has no answer from that real
                    }
                }
            }
            String reason = lane.retransmission ? "retransmitted" : lane.how.tag();
            List<String> refusedBy = lane.refusedBy.stream().map(this::realName).toList();
            return new Direction(key, ended, lane.real, reason, answer, refusedBy);
        } finally {
            request.release();
            // What the engine relayed is learnt from by now: the lane would hold it until its next request,
            // and the last of a run for ever.
            lane.releaseRelayed();
        }
    }

    /** What the run counts of the director's answer, and what the simulated client learns from it. */
    private void learnFrom(OfflineLane lane, SignalingProtocol protocol, byte[] captured) {
        reassignedAfterRefusal += lane.refusedBy.size();
        if (lane.answerDropped) {
            answersDropped++;
        } else if (lane.answerRefused != null) {
            answersRefused.merge(lane.answerRefused.name(), 1, Integer::sum);
        } else if (lane.relayed != null) {
            clients.learn(protocol, captured, lane.relayed);
        }
    }
}
