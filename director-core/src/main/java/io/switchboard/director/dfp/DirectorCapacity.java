package io.switchboard.director.dfp;

import io.switchboard.director.Director;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.ServerFarm;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A director's virtual servers as DFP hosts: each is reported at its listen address and port, UDP
 * (protocol 17), bind ID 0, with the sum of the weights of its farm's reals that take new work as
 * its weight (0 when it is out of service or draining), at most 65535. Virtual servers on IPv6
 * addresses are not reported: a Host Preference Field holds an IPv4 address (draft-eck-dfp-01 §5.2).
 */
public final class DirectorCapacity implements DfpCapacity {

    static final int UDP = 17;
    private static final int MAX_WEIGHT = 0xFFFF;

    private final Director director;

    public DirectorCapacity(Director director) {
        this.director = director;
    }

    @Override
    public List<DfpLoad> loads() {
        Map<Integer, List<DfpLoad.Host>> byPort = new TreeMap<>();
        for (VirtualServer vs : director.virtualServers().values()) {
            InetSocketAddress bound = director.localAddress(vs.name());
            InetSocketAddress at = bound != null ? bound : vs.config().listen().socketAddress();
            if (!(at.getAddress() instanceof Inet4Address v4)) {
                continue;
            }
            int weight = vs.inService() && !vs.draining() ? capacity(director.farms().farm(vs.config().farm())) : 0;
            byPort.computeIfAbsent(at.getPort(), p -> new ArrayList<>()).add(new DfpLoad.Host(v4, 0, weight));
        }
        List<DfpLoad> loads = new ArrayList<>();
        byPort.forEach((port, hosts) -> {
            for (int i = 0; i < hosts.size(); i += DfpLoad.MAX_HOSTS) {
                loads.add(new DfpLoad(port, UDP, hosts.subList(i, Math.min(hosts.size(), i + DfpLoad.MAX_HOSTS))));
            }
        });
        return loads;
    }

    /**
     * The relative KAL-AP load of each virtual address ({@link KalApLoad#relative}): over the virtual
     * servers at the address, the reals in service (not taken out of service) and, of those, the
     * active ones (taking new work). Computed, not yet answered on the network (docs/dfp.md).
     */
    public Map<java.net.InetAddress, Integer> kalApLoads() {
        Map<java.net.InetAddress, int[]> counts = new java.util.LinkedHashMap<>();
        for (VirtualServer vs : director.virtualServers().values()) {
            ServerFarm farm = director.farms().farm(vs.config().farm());
            int[] c = counts.computeIfAbsent(vs.config().listen().address(), a -> new int[2]);
            if (farm == null) {
                continue;
            }
            for (RealServer r : farm.reals()) {
                if (r.state() != io.switchboard.director.real.RealState.OUTOFSERVICE) {
                    c[1]++;
                    c[0] += vs.inService() && r.state().takesNewWork() ? 1 : 0;
                }
            }
        }
        Map<java.net.InetAddress, Integer> loads = new java.util.LinkedHashMap<>();
        counts.forEach((address, c) -> loads.put(address, KalApLoad.relative(c[0], c[1])));
        return loads;
    }

    /** The sum of the weights of the reals of {@code farm} that take new work. */
    static int capacity(ServerFarm farm) {
        if (farm == null) {
            return 0;
        }
        long sum = 0;
        for (RealServer r : farm.reals()) {
            if (r.state().takesNewWork()) {
                sum += r.weight();
            }
        }
        return (int) Math.min(sum, MAX_WEIGHT);
    }
}
