package io.switchboard.pcap;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.DebugCaptureConfig;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a live what-if run puts everything, on loopback only: the virtual servers on 127.0.0.1 with
 * ports the kernel picks; each address of the configuration's reals on an address of its own in
 * 127.0.1.0/24 (reals that share an address in the configuration share one here, which sticky groups
 * rely on), each real on a port of its simulator's; each source address of the capture on an address
 * of its own from 127.0.2.1 on (so that no requester shares an address with a real, as in the
 * capture). The live configuration keeps the farms, predictors, failure detection, sticky settings
 * and plug-in options, without probes, admin listener, cluster or route health (what-if does not
 * simulate them).
 */
final class LoopbackLayout {

    static final InetAddress VIRTUAL_SERVERS = address(127, 0, 0, 1);
    private static final int REAL_NET = 1;
    private static final int REQUESTER_NET_FIRST = 2;

    private final Map<InetAddress, InetAddress> realAddresses = new HashMap<>();
    private final Map<InetAddress, InetAddress> requesterAddresses = new HashMap<>();
    private final Map<InetAddress, InetAddress> capturedRequesters = new HashMap<>();

    private static InetAddress address(int a, int b, int c, int d) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The loopback address standing in for a configured real's address. */
    InetAddress realAddress(InetAddress configured) {
        return realAddresses.computeIfAbsent(configured, a -> {
            int n = realAddresses.size() + 1;
            if (n > 254) {
                throw new IllegalArgumentException("live what-if: more than 254 real addresses");
            }
            return address(127, 0, REAL_NET, n);
        });
    }

    /** The loopback address standing in for a source address of the capture. */
    InetAddress requesterAddress(InetAddress captured) {
        return requesterAddresses.computeIfAbsent(captured, a -> {
            int n = requesterAddresses.size();
            int net = REQUESTER_NET_FIRST + n / 254;
            if (net > 255) {
                throw new IllegalArgumentException("live what-if: more than 64,000 source addresses in the captures");
            }
            InetAddress stand = address(127, 0, net, 1 + n % 254);
            capturedRequesters.put(stand, captured);
            return stand;
        });
    }

    /** The capture's source address a stand-in stands for, or null. */
    InetAddress capturedRequester(InetAddress standIn) {
        return capturedRequesters.get(standIn);
    }

    /**
     * The configuration the live director runs: {@code config} with each real at
     * {@code realPorts.get(real)} of its stand-in address and each virtual server at 127.0.0.1, port 0.
     *
     * @param bound where each configured real's simulator is bound, by {@code farm/address:port}
     */
    static SwitchboardConfig live(SwitchboardConfig config, Map<String, InetSocketAddress> bound) {
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        for (FarmConfig farm : config.farms().values()) {
            List<RealConfig> reals = farm.reals().stream().map(r -> {
                InetSocketAddress at = bound.get(farm.name() + "/" + r.endpoint());
                return new RealConfig(at.getAddress(), at.getPort(), r.weight(), r.maxconns(), r.inService(), r.values(),
                        r.removal(), r.limits());
            }).toList();
            Map<Subnet, Endpoint> routeMap = new LinkedHashMap<>();
            farm.routeMap().forEach((prefix, real) -> {
                InetSocketAddress at = bound.get(farm.name() + "/" + real);
                routeMap.put(prefix, new Endpoint(at.getAddress(), at.getPort()));
            });
            farms.put(farm.name(), new FarmConfig(farm.name(), farm.predictor(), farm.failure(), reals, farm.backup(),
                    List.of(), farm.slowStart(), routeMap));
        }
        Map<String, VirtualServerConfig> virtualServers = new LinkedHashMap<>();
        for (VirtualServerConfig vs : config.virtualServers().values()) {
            virtualServers.put(vs.name(), new VirtualServerConfig(vs.name(), new Endpoint(VIRTUAL_SERVERS, 0),
                    vs.service(), vs.farm(), vs.sticky(), vs.responseTimeout(), vs.idle(), vs.maxDatagram(),
                    vs.inService(), vs.options()));
        }
        return new SwitchboardConfig(ClusterConfig.SINGLE_NODE,
                new AdminConfig(false, AdminConfig.DEFAULT.listen(), Optional.empty()), farms, virtualServers, Map.of(),
                RouteHealthConfig.NONE, DebugCaptureConfig.DEFAULT, DispatchedConfig.NONE);
    }
}
