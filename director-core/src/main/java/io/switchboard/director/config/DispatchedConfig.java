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
     * IP protocols sent to one virtual address balanced in dispatched mode by client address: ESP
     * and GRE tied to the client's IKE or PPTP binding through a sticky group, and the all-port
     * virtual servers of IOS ({@code virtual ADDR tcp 0}, {@code udp 0}, {@code any 0}: every port of
     * the protocol, firewall and dispatched-mode balancing), whose clients are kept in a table of
     * the farm's own when no group is named.
     *
     * @param address     the virtual address the packets are sent to
     * @param protocols   the IP protocol numbers dispatched (50 ESP, 47 GRE, 6 TCP, 17 UDP), or
     *                    {@link #ANY}
     * @param stickyGroup the sticky group of the IKE (UDP 500/4500) and PPTP (TCP 1723) virtual
     *                    servers; empty: the farm's own table of client addresses
     * @param sticky      how long the farm's own table keeps an idle client (unused with a group)
     */
    public record VpnFarm(String name, String farm, String interfaceName, InetAddress address,
            Set<Integer> protocols, Optional<String> stickyGroup, Duration sticky, List<VpnReal> reals) {

        /** Every IP protocol ({@code any}). */
        public static final int ANY = -1;
        public static final int TCP = 6;
        public static final int UDP = 17;
        /**
         * The UDP ports an all-port virtual server leaves alone (IOS SLB: an all-port virtual server
         * takes every port but the GTP ports, IOS SLB configuration guide, port-bound servers): the
         * registered ports of GTPv1/v2-C 2123 (TS 29.060, TS 29.274), GTP-U 2152 (TS 29.281) and GTPv0
         * 3386 (GSM 09.60). A director's own gtp virtual servers can listen on the same address.
         */
        public static final Set<Integer> GTP_PORTS = Set.of(2123, 2152, 3386);
        public static final Duration DEFAULT_STICKY = Duration.ofMinutes(1);

        public VpnFarm {
            protocols = Set.copyOf(protocols);
            reals = List.copyOf(reals);
        }

        /** ESP/GRE tied to the IKE and PPTP virtual servers of {@code stickyGroup}. */
        public VpnFarm(String name, String farm, String interfaceName, InetAddress address,
                Set<Integer> protocols, String stickyGroup, List<VpnReal> reals) {
            this(name, farm, interfaceName, address, protocols, Optional.of(stickyGroup), DEFAULT_STICKY, reals);
        }

        public boolean dispatches(int protocol) {
            return protocols.contains(ANY) || protocols.contains(protocol);
        }

        /** A UDP datagram to this port is left to the host (all-port UDP, {@link #GTP_PORTS}). */
        public boolean leavesUdpPort(int port) {
            return dispatches(UDP) && GTP_PORTS.contains(port);
        }
    }
}
