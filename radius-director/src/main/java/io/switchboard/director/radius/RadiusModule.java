package io.switchboard.director.radius;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.radius.radsec.RadsecMeters;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.RealView;
import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.ProbeType;
import io.switchboard.director.spi.RealKey;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.spi.DatagramService;
import java.util.List;

/**
 * RADIUS authentication and accounting: {@code radius}, sticky by subscriber attributes, probed by
 * Status-Server; and Dynamic Authorization toward the NASes: {@code radius-dae}.
 */
public final class RadiusModule implements PluginModule {

    /** Framed-IP-Address (attribute 8): the subscriber's IPv4 address. */
    public static final StickyKind FRAMED_IP = StickyKind.of("framed-ip", StickyKind.Format.ADDRESS);
    /** Framed-IPv6-Prefix (attribute 97, RFC 3162 §2.3): the prefix of the subscriber's link, {@code 2001:db8:1:2::/64}. */
    public static final StickyKind FRAMED_IPV6_PREFIX = StickyKind.of("framed-ipv6-prefix", StickyKind.Format.PREFIX);
    /** Delegated-IPv6-Prefix (attribute 123, RFC 4818): the prefix delegated to the subscriber's router (DHCPv6-PD). */
    public static final StickyKind DELEGATED_IPV6_PREFIX = StickyKind.of("delegated-ipv6-prefix",
            StickyKind.Format.PREFIX);
    /** Calling-Station-Id (attribute 31): the MSISDN in 3GPP, the MSID in CDMA. */
    public static final StickyKind CALLING_STATION_ID = StickyKind.of("calling-station-id", StickyKind.Format.TEXT);
    /** User-Name (attribute 1). */
    public static final StickyKind USERNAME = StickyKind.of("username", StickyKind.Format.TEXT);

    /**
     * A real's {@code secret}: the secret the director shares with that server, to sign what it
     * relays to it and verify its answers (and the probe's, when the probe has none of its own).
     */
    public static final RealKey<String> SECRET = RealKey.of(Key.secret("secret").byDefault("none")
            .note("The secret shared with this real, for services that sign messages (RADIUS, RFC 2865 §3)."),
            "the real's RADIUS secret", String.class, real -> real.secret("secret"), java.util.function.Function.identity());

    /**
     * A real's {@code require-message-authenticator} ({@code true}, {@code false}, {@code auto}; default
     * {@link RadiusOptions#DEFAULT_REQUIRE}): whether its Access-Accept, -Reject and -Challenge must carry
     * a Message-Authenticator, as FreeRADIUS's {@code home_server} has it ({@link MessageAuthenticatorPolicy}).
     */
    public static final RealKey<RadiusOptions.Tristate> REQUIRE_MESSAGE_AUTHENTICATOR = RealKey.of(
            RadiusOptionsBinder.tristateKey("require-message-authenticator").defaultValue(RadiusOptions.DEFAULT_REQUIRE.text())
                    .note("Whether the real's Access-Accept, -Reject and -Challenge must carry a Message-Authenticator"
                            + " (RFC 3579 §3.2; `auto`: once one of its answers has carried one)."),
            "whether the real's Access-* answers must carry a Message-Authenticator",
            RadiusOptions.Tristate.class, real -> RadiusOptionsBinder.tristate(real, "require-message-authenticator"),
            RadiusOptions.Tristate::text);

    /**
     * A real's {@code transport}: {@code udp} (the default) or {@code radsec}, RADIUS over TLS to the
     * real's address (port 2083 by custom, RFC 6614), with the virtual server's {@code radsec.tls}.
     */
    private static final List<String> TRANSPORTS = List.of("udp", "radsec");

    public static final RealKey<String> TRANSPORT = RealKey.of(Key.oneOf("transport", TRANSPORTS).defaultValue("udp")
                    .note("How the director reaches a RADIUS real: `radsec` is RADIUS over TLS (RFC 6614), with the"
                            + " virtual server's `radsec.tls`."),
            "how the director reaches the real: udp, or radsec (RADIUS over TLS, RFC 6614)", String.class,
            real -> real.string("transport").filter(t -> {
                if (TRANSPORTS.contains(t)) {
                    return true;
                }
                real.error(real.pathOf("transport"), "must be udp or radsec, not '" + t + "'");
                return false;
            }), t -> t);

    /** Whether the director reaches {@code real} by RadSec. */
    static boolean radsec(RealView real) {
        return real.value(TRANSPORT).map("radsec"::equals).orElse(false);
    }

    @Override
    public List<DatagramService> services() {
        return List.of(new RadiusService(), new RadiusDaeService());
    }

    @Override
    public List<StickyKind> stickyKinds() {
        return List.of(FRAMED_IP, FRAMED_IPV6_PREFIX, DELEGATED_IPV6_PREFIX, CALLING_STATION_ID, USERNAME);
    }

    @Override
    public List<ProbeType> probeTypes() {
        return List.of(RadiusCheck.TYPE);
    }

    @Override
    public List<RealKey<?>> realKeys() {
        return List.of(SECRET, REQUIRE_MESSAGE_AUTHENTICATOR, TRANSPORT);
    }

    @Override
    public List<MetricSpec> metrics() {
        return java.util.stream.Stream.concat(RadiusMeters.ALL.stream(), RadsecMeters.ALL.stream()).toList();
    }
}
