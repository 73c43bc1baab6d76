package io.switchboard.l4.dispatch;

import io.switchboard.director.Ticker;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.l4.dispatch.DispatchMetrics.Outcome;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A firewall farm in dispatched mode (IOS {@code ip slb firewallfarm}): each IPv4 frame that
 * arrives on the outside or inside interface is sent, unchanged but for its Ethernet addresses, to
 * the MAC address of the firewall its flow is bound to, on that firewall's leg of the same side.
 *
 * <p>A flow is the pair (outside address, inside address) — and the two ports with
 * {@code hashPorts} — taken from the side the frame came from, so both directions of a flow are the
 * same flow and cross the same firewall. A new flow goes to the firewall bound to its inside address
 * in the RADIUS director's Framed-IP table (when configured), else to the one its address pair used
 * last within the sticky time (with ports), else to the farm's pick for the flow's hash. A flow
 * counts as one of its firewall's connections (what {@code maxconns} limits) until it has been idle
 * for the sticky time; a flow whose firewall fails moves to another.
 */
final class FirewallDispatcher {

    enum Side { OUTSIDE, INSIDE }

    /** A flow, or with ports an address pair; the fields in the order of the side they were read. */
    record FlowKey(int outside, int inside, int outsidePort, int insidePort, int protocol) {
        long hash() {
            long h = ((long) outside << 32) ^ (inside & 0xffffffffL);
            h ^= ((long) outsidePort << 48) ^ ((long) insidePort << 16) ^ protocol;
            h *= 0x9e3779b97f4a7c15L; // Fibonacci mixing: the farm's consistent hash wants spread bits
            return h ^ (h >>> 29);
        }
    }

    static final class Flow {
        final RealServer real;
        volatile long lastSeenNanos;

        Flow(RealServer real, long now) {
            this.real = real;
            this.lastSeenNanos = now;
        }
    }

    private final DispatchedConfig.FirewallFarm config;
    private final ServerFarm farm;
    private final Farms farms;
    /** The kind of the bindings a firewall farm's {@code framed-ip-group} holds (RADIUS's, by name). */
    private static final StickyKind FRAMED_IP = StickyKind.named("framed-ip");

    private final StickyTable framedIp;
    private final Set<Integer> local;
    private final DispatchMetrics metrics;
    private final Ticker ticker;
    private final long stickyNanos;
    private final Map<RealServer, byte[][]> legs = new HashMap<>();
    private final Map<RealServer, String[]> legInterfaces = new HashMap<>();
    private final Map<InetAddress, RealServer> byAddress = new HashMap<>();
    private final ConcurrentHashMap<FlowKey, Flow> flows = new ConcurrentHashMap<>();
    /** With ports: the address pairs' last firewall, so a pair's new connections stick to it. */
    private final ConcurrentHashMap<FlowKey, Flow> pairs = new ConcurrentHashMap<>();

    /**
     * @param framedIp the table of the Framed-IP bindings, or null
     * @param local    the director's own IPv4 addresses (as ints): frames to them are its own
     */
    FirewallDispatcher(DispatchedConfig.FirewallFarm config, Farms farms, StickyTable framedIp, Set<Integer> local,
            DispatchMetrics metrics, Ticker ticker) {
        this.config = config;
        this.farms = farms;
        this.farm = farms.farm(config.farm());
        this.framedIp = framedIp;
        this.local = Set.copyOf(local);
        this.metrics = metrics;
        this.ticker = ticker;
        this.stickyNanos = config.sticky().toNanos();
        for (DispatchedConfig.Firewall firewall : config.firewalls()) {
            for (RealServer real : farm.reals()) {
                if (real.address().getAddress().equals(firewall.address())) {
                    legs.put(real, new byte[][] {Macs.parse(firewall.outside().mac()), Macs.parse(firewall.inside().mac())});
                    legInterfaces.put(real, new String[] {firewall.outside().interfaceName(),
                            firewall.inside().interfaceName()});
                    byAddress.put(firewall.address(), real);
                }
            }
        }
    }

    String name() {
        return config.name();
    }

    /** One captured frame of {@code side}; the view is the capture thread's own. */
    void dispatch(Side side, byte[] frame, int length, FrameView view, FrameOutput out) {
        FrameView.Verdict verdict = view.read(frame, length);
        if (verdict != FrameView.Verdict.IPV4) {
            metrics.frame(verdict == FrameView.Verdict.MALFORMED ? Outcome.MALFORMED : Outcome.UNEXPECTED);
            return;
        }
        if (local.contains(view.destination)) {
            metrics.frame(Outcome.LOCAL);
            return;
        }
        boolean outside = side == Side.OUTSIDE;
        int outsideAddress = outside ? view.source : view.destination;
        int insideAddress = outside ? view.destination : view.source;
        FlowKey pair = new FlowKey(outsideAddress, insideAddress, 0, 0, 0);
        FlowKey key = config.hashPorts() && view.hasPorts
                ? new FlowKey(outsideAddress, insideAddress, outside ? view.sourcePort : view.destinationPort,
                        outside ? view.destinationPort : view.sourcePort, view.protocol)
                : pair;
        long now = ticker.nanos();
        Flow flow = flows.get(key);
        if (flow == null || !flow.real.servesBoundClients()) {
            flow = newFlow(key, pair, insideAddress, flow, now);
            if (flow == null) {
                metrics.frame(Outcome.NO_REAL);
                return;
            }
        }
        flow.lastSeenNanos = now;
        if (key != pair) {
            Flow last = pairs.get(pair);
            if (last != null) {
                last.lastSeenNanos = now;
            }
        }
        int leg = outside ? 0 : 1;
        System.arraycopy(legs.get(flow.real)[leg], 0, frame, 0, 6);
        metrics.frame(out.send(legInterfaces.get(flow.real)[leg], frame, length) ? Outcome.FORWARDED : Outcome.SEND_FAILED);
    }

    private Flow newFlow(FlowKey key, FlowKey pair, int insideAddress, Flow stale, long now) {
        String reason = stale != null ? "reassigned" : "hash";
        RealServer real = framedIpFirewall(insideAddress, now);
        if (real != null) {
            reason = "framed-ip";
        } else if (key != pair) {
            Flow last = pairs.get(pair);
            if (last != null && last.real.servesBoundClients() && now - last.lastSeenNanos < stickyNanos) {
                real = last.real;
                reason = "sticky";
            }
        }
        if (real == null) {
            real = farm.pick(key.hash());
            if (real == null) {
                return null;
            }
        }
        real.requestForwarded();
        Flow flow = new Flow(real, now);
        Flow raced = stale == null ? flows.putIfAbsent(key, flow) : (flows.replace(key, stale, flow) ? null : flows.get(key));
        if (raced != null) {
            real.requestAnswered(); // the other capture thread made this flow first: use its firewall
            return raced;
        }
        if (stale != null) {
            stale.real.requestAnswered();
        }
        if (key != pair) {
            pairs.put(pair, new Flow(real, now));
        }
        metrics.selected(reason);
        return flow;
    }

    /** The firewall with the address of the real the inside address's Framed-IP binding names. */
    private RealServer framedIpFirewall(int insideAddress, long now) {
        if (framedIp == null) {
            return null;
        }
        StickyBinding binding = framedIp.lookup(StickyKey.of(FRAMED_IP, Ipv4.bytes(insideAddress)), now);
        if (binding == null) {
            return null;
        }
        RealServer gateway = farms.real(binding.farm(), binding.real());
        RealServer firewall = gateway == null ? null : byAddress.get(gateway.address().getAddress());
        return firewall != null && firewall.servesBoundClients() ? firewall : null;
    }

    /** Ends flows idle for the sticky time: their firewalls get the connections back. */
    void expire(long nowNanos) {
        flows.entrySet().removeIf(e -> {
            if (nowNanos - e.getValue().lastSeenNanos >= stickyNanos) {
                e.getValue().real.requestAnswered();
                return true;
            }
            return false;
        });
        pairs.values().removeIf(f -> nowNanos - f.lastSeenNanos >= stickyNanos);
    }

    int flows() {
        return flows.size();
    }
}
