package io.switchboard.director.config;

import java.time.Duration;
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
 * @param clientNat       true (default): requests reach the reals from the director's own address;
 *                        false: from the client's own address and port, through sockets bound to it
 *                        with {@code IP_TRANSPARENT}, so that the reals see the client (IOS
 *                        {@code no nat client}; the host routing it needs: docs/transparent.md)
 */
public record VirtualServerConfig(String name, Endpoint listen, String service, String farm,
        Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
        boolean inService, ServiceOptions options, OverloadConfig overload, boolean clientNat) {

    /** A virtual server whose reals see the director's address (client NAT on, the default). */
    public VirtualServerConfig(String name, Endpoint listen, String service, String farm,
            Optional<StickyConfig> sticky, Duration responseTimeout, Duration idle, int maxDatagram,
            boolean inService, ServiceOptions options, OverloadConfig overload) {
        this(name, listen, service, farm, sticky, responseTimeout, idle, maxDatagram, inService, options, overload,
                true);
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

    /** The options as the plug-in's own record type. */
    public <T extends ServiceOptions> T options(Class<T> type) {
        return type.cast(options);
    }

    public static final Duration DEFAULT_RESPONSE_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration DEFAULT_IDLE = Duration.ofMinutes(1);
    public static final int DEFAULT_MAX_DATAGRAM = 4096;
}
