package io.switchboard.l4.dispatch;

import io.switchboard.director.RealSelector;
import io.switchboard.director.Selection;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.StickyTable;
import io.switchboard.l4.dispatch.DispatchMetrics.Outcome;
import java.util.HashMap;
import java.util.Map;

/**
 * VPN flows in dispatched mode: ESP (IP protocol 50) and GRE (47) packets sent to the virtual
 * address go, unchanged but for their Ethernet addresses, to the real the client is bound to in the
 * sticky group of the IKE (UDP 500/4500) and PPTP (TCP 1723) virtual servers, so a client's tunnel
 * packets reach the concentrator that holds its IKE SA or PPTP control connection. A client without a
 * binding is given one by the farm, in the group, so its later IKE or PPTP traffic follows. The group
 * resolves bindings by IP address ({@link RealSelector} with {@code grouped}), so the IKE real's port
 * does not matter. The same dispatcher serves IOS's all-port virtual servers (TCP, UDP or any
 * protocol to every port of the address), with a table of its own when no group is named.
 */
final class VpnDispatcher {

    private final DispatchedConfig.VpnFarm config;
    private final RealSelector selector;
    private final int virtualAddress;
    private final DispatchMetrics metrics;
    private final Ticker ticker;
    private final Map<RealServer, byte[]> macs = new HashMap<>();
    private final Map<RealServer, String> interfaces = new HashMap<>();

    VpnDispatcher(DispatchedConfig.VpnFarm config, Farms farms, StickyTable group, DispatchMetrics metrics,
            Ticker ticker) {
        this.config = config;
        this.selector = new RealSelector(farms, farms.farm(config.farm()), group, true);
        this.virtualAddress = Ipv4.of(config.address().getAddress());
        this.metrics = metrics;
        this.ticker = ticker;
        for (DispatchedConfig.VpnReal vpnReal : config.reals()) {
            for (RealServer real : farms.farm(config.farm()).reals()) {
                if (real.address().getAddress().equals(vpnReal.address())) {
                    macs.put(real, Macs.parse(vpnReal.link().mac()));
                    interfaces.put(real, vpnReal.link().interfaceName());
                }
            }
        }
    }

    String name() {
        return config.name();
    }

    void dispatch(byte[] frame, int length, FrameView view, FrameOutput out) {
        FrameView.Verdict verdict = view.read(frame, length);
        if (verdict != FrameView.Verdict.IPV4) {
            metrics.frame(verdict == FrameView.Verdict.MALFORMED ? Outcome.MALFORMED : Outcome.UNEXPECTED);
            return;
        }
        if (view.destination != virtualAddress || !config.dispatches(view.protocol)) {
            metrics.frame(Outcome.UNEXPECTED);
            return;
        }
        if (view.protocol == FrameView.UDP && view.hasPorts && config.leavesUdpPort(view.destinationPort)) {
            metrics.frame(Outcome.GTP_PORT); // the host's own (a gtp virtual server), as IOS leaves them
            return;
        }
        // The key the IKE (udp) and PPTP (tcp) virtual servers bind: the whole client address. An
        // all-port farm keeps a client on one real for all its flows, also for later fragments,
        // which carry no ports (RFC 791).
        Selection selection = selector.select(StickyKey.of(StickyKind.CLIENT_ADDRESS, Ipv4.bytes(view.source)),
                ticker.nanos());
        if (selection == null || !macs.containsKey(selection.real())) {
            metrics.frame(Outcome.NO_REAL);
            return;
        }
        RealServer real = selection.real();
        if (selection.reason() != Selection.Reason.STICKY) {
            real.releaseClaim(); // tunnel packets are not answered through us: no test request pending
            metrics.selected(selection.reason().tag());
        }
        real.requestSentOneWay();
        System.arraycopy(macs.get(real), 0, frame, 0, 6);
        metrics.frame(out.send(interfaces.get(real), frame, length) ? Outcome.FORWARDED : Outcome.SEND_FAILED);
    }
}
