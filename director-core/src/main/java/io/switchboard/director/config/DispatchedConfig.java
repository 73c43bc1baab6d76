package io.switchboard.director.config;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Dispatched mode: balancers that capture frames on an interface and forward them, unchanged but for
 * the Ethernet addresses, to the chosen real's MAC address (no NAT): firewall farms and VPN flows.
 */
public record DispatchedConfig(Map<String, FirewallFarm> firewallFarms, Map<String, VpnFarm> vpnFarms) {

    public static final DispatchedConfig NONE = new DispatchedConfig(Map.of(), Map.of());

    public DispatchedConfig {
        firewallFarms = Collections.unmodifiableMap(new LinkedHashMap<>(firewallFarms));
        vpnFarms = Collections.unmodifiableMap(new LinkedHashMap<>(vpnFarms));
    }

    public boolean isEmpty() {
        return firewallFarms.isEmpty() && vpnFarms.isEmpty();
    }

    /**
     * Where frames for one real go out: an interface of the director and the real's MAC address on it.
     *
     * @param mac six octets written {@code 02:00:5e:00:01:02}, lower case
     */
    public record Link(String interfaceName, String mac) {
    }

    /**
     * One firewall: its address (that of a real of the firewall farm's farm, probed and counted
     * there) and its two legs.
     */
    public record Firewall(InetAddress address, Link outside, Link inside) {
    }

    /**
     * A firewall farm (IOS {@code ip slb firewallfarm}).
     *
     * @param farm            the farm whose reals are the firewalls: their states, probes, weights and
     *                        {@code maxconns} (flows) hold
     * @param outside         the interface where the outside (client side) traffic arrives
     * @param inside          the interface where the inside (server side) traffic arrives
     * @param hashPorts       the flow is the address pair and the TCP/UDP ports, not the addresses alone
     * @param sticky          how long a flow (and with ports, its address pair) keeps its firewall
     *                        after its last packet
     * @param firewalls       the legs of each of the farm's reals
     * @param framedIpGroup   the sticky group holding the RADIUS director's Framed-IP bindings: a flow
     *                        whose inside address is bound there goes through the firewall with the
     *                        bound real's address
     */
    public record FirewallFarm(String name, String farm, String outside, String inside, boolean hashPorts,
            Duration sticky, List<Firewall> firewalls, Optional<String> framedIpGroup) {

        public FirewallFarm {
            firewalls = List.copyOf(firewalls);
        }
    }

    /** One real of a VPN farm: its address (a real of the farm) and where its frames go. */
    public record VpnReal(InetAddress address, Link link) {
    }

    /**
     * ESP and GRE balanced in dispatched mode by client address, tied to the client's IKE or PPTP
     * binding through a sticky group.
     *
     * @param address     the virtual address the ESP/GRE packets are sent to
     * @param protocols   the IP protocol numbers dispatched (50 ESP, 47 GRE)
     * @param stickyGroup the sticky group of the IKE (UDP 500/4500) and PPTP (TCP 1723) virtual servers
     */
    public record VpnFarm(String name, String farm, String interfaceName, InetAddress address,
            Set<Integer> protocols, String stickyGroup, List<VpnReal> reals) {

        public VpnFarm {
            protocols = Set.copyOf(protocols);
            reals = List.copyOf(reals);
        }
    }
}
