package io.switchboard.director.config;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A virtual server: the address clients send to, the protocol service that decodes their requests,
 * the farm that serves them and how they stay sticky.
 *
 * @param service         the name of the service ({@code service:}), as its plug-in declares it
 * @param responseTimeout how long a forwarded request waits for its answer before it counts as an
 *                        in-band failure of the real
 * @param idle            how long an idle flow (generic UDP) is kept
 * @param maxDatagram     larger datagrams are dropped as {@code oversized}
 * @param options         the service's own settings, {@link ServiceOptions#NONE} when it has none
 * @param overload        its admission rates and shedding ({@link OverloadConfig#NONE}: none)
 * @param clientFarms     client-assigned farms ({@code client-farms}): clients of these subnets are
 *                        served by another farm than {@code farm}; empty when all go to {@code farm}
 * @param clientNat       true (default): requests reach the reals from the director's own address;
 *                        false: from the client's own address and port, through sockets bound to it
 *                        with {@code IP_TRANSPARENT}, so that the reals see the client (IOS
 *                        {@code no nat client}; the host routing it needs: docs/transparent.md)
 * @param access          the interfaces whose datagrams this virtual server serves (IOS
 *                        {@code access INTERFACE}); empty: every interface. Datagrams to the virtual
 *                        address arriving on another interface are counted and dropped
 */
public record VirtualServerConfig(String name, Endpoint listen, String service, String farm,
        Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
        boolean inService, ServiceOptions options, OverloadConfig overload, List<ClientFarm> clientFarms,
        boolean clientNat, List<String> access) {

    public VirtualServerConfig {
        clientFarms = List.copyOf(clientFarms);
        access = List.copyOf(access);
    }

    /** A virtual server served on every interface. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options, OverloadConfig overload, List<ClientFarm> clientFarms,
            boolean clientNat) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options, overload,
                clientFarms, clientNat, List.of());
    }

    /** A virtual server with client-assigned farms, its reals seeing the director's address. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options, OverloadConfig overload, List<ClientFarm> clientFarms) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options, overload,
                clientFarms, true);
    }

    /** A virtual server whose clients all go to {@code farm}, client NAT as given. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options, OverloadConfig overload, boolean clientNat) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options, overload,
                List.of(), clientNat);
    }

    /** A virtual server whose clients all go to {@code farm}, its reals seeing the director's address. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options, OverloadConfig overload) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options, overload,
                List.of(), true);
    }

    /** A virtual server without admission control. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options,
                OverloadConfig.NONE);
    }

    /** A virtual server whose service takes no options. */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, ServiceOptions.NONE);
    }

    /**
     * The farm that serves {@code client}: the farm of the client-farms entry with the longest
     * prefix containing it (a /24 inside a /16 is the more specific assignment, as a routing table
     * reads it), else {@link #farm}. The one copy of this decision: the live lanes and what-if reach
     * it through {@code VirtualServer.selectorFor}.
     */
    public String farmFor(InetAddress client) {
        String chosen = farm;
        int longest = -1;
        for (ClientFarm entry : clientFarms) {
            for (Subnet subnet : entry.clients()) {
                if (subnet.prefixLength() > longest && subnet.contains(client)) {
                    longest = subnet.prefixLength();
                    chosen = entry.farm();
                }
            }
        }
        return chosen;
    }

    /** The options as the plug-in's own record type. */
    public <T extends ServiceOptions> T options(Class<T> type) {
        return type.cast(options);
    }

    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_IDLE = Duration.ofMinutes(1);
    public static final int DEFAULT_MAX_DATAGRAM = 4096;
}
