package io.switchboard.director.ha;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.probe.Probe;
import io.switchboard.director.probe.RealRestartListener;
import io.switchboard.director.spi.ProbeType;
import io.vertx.core.Vertx;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A Mobile IP Registration Request (RFC 5944) for a probe mobile node, answered with the expected
 * reply code. The request deregisters ({@code lifetime} 0, care-of address = home address), so a
 * probe leaves no binding behind; its Identification is the current NTP time (valid under
 * time-stamp replay protection) and it carries the MN-NAI when given and an MN-HA authenticator
 * (HMAC-MD5, RFC 5944 §3.5.1) with {@code spi} and {@code key}.
 *
 * @param homeAgent the Home Agent field; empty: the real's own address
 */
public record MobileIpCheck(InetAddress homeAddress, Optional<InetAddress> homeAgent, Optional<String> nai, long spi,
        byte[] key, int expectCode) implements ProbeCheck {

    /** {@code type: mip}. */
    public static final ProbeType TYPE = ProbeType.of("mip", List.of(
            Key.address("home-address").required().note("IPv4: the probe mobile node's home address."),
            Key.address("home-agent").byDefault("the real's address")
                    .note("IPv4: the Home Agent field (the virtual address when the agents accept it as their own)."),
            Key.string("nai").byDefault("none").note("The probe mobile node's MN-NAI (RFC 2794), at most 255 bytes."),
            Key.integer("spi", 256, Integer.MAX_VALUE).required()
                    .note("The MN-HA security parameter index (RFC 5944: 0..255 are reserved)."),
            Key.string("key").required().note("The MN-HA key (HMAC-MD5), text or `hex:...`."),
            Key.integer("expect-code", 0, 255).defaultValue(0).note("The Registration Reply code that passes.")),
            MobileIpCheck::bind);

    public MobileIpCheck {
        key = key.clone();
    }

    @Override
    public byte[] key() {
        return key.clone();
    }

    @Override
    public String type() {
        return TYPE.name();
    }

    @Override
    public Probe probe(Vertx vertx, Duration timeout, RealRestartListener restarts) {
        return new MobileIpProbe(vertx, this, timeout);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MobileIpCheck m && m.homeAddress.equals(homeAddress) && m.homeAgent.equals(homeAgent)
                && m.nai.equals(nai) && m.spi == spi && Arrays.equals(m.key, key) && m.expectCode == expectCode;
    }

    @Override
    public int hashCode() {
        return homeAddress.hashCode() * 31 + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "MobileIp[homeAddress=" + homeAddress.getHostAddress() + ", nai=" + nai.orElse("-") + ", spi=" + spi
                + ", expectCode=" + expectCode + "]"; // the key stays out of logs
    }

    private static Optional<ProbeCheck> bind(Section s) {
        boolean hasHome = s.require("home-address", "required for a mip probe: the probe mobile node's home address");
        boolean hasSpi = s.require("spi", "required for a mip probe: the MN-HA security parameter index");
        boolean hasKey = s.require("key", "required for a mip probe: the MN-HA key");
        Optional<InetAddress> home = hasHome ? ipv4(s, "home-address") : Optional.empty();
        Optional<InetAddress> agent = ipv4(s, "home-agent");
        boolean agentOk = !s.has("home-agent") || agent.isPresent();
        Optional<String> nai = s.string("nai");
        boolean naiOk = !s.has("nai") || nai.isPresent();
        if (nai.isPresent() && nai.get().getBytes(StandardCharsets.UTF_8).length > 255) {
            s.error(s.pathOf("nai"), "must be at most 255 bytes");
            naiOk = false;
        }
        Optional<Integer> spi = hasSpi ? s.integer("spi") : Optional.empty();
        Optional<byte[]> key = hasKey ? s.bytes("key") : Optional.empty();
        Optional<Integer> code = s.has("expect-code") ? s.integer("expect-code") : Optional.of(0);
        return home.isPresent() && agentOk && naiOk && spi.isPresent() && key.isPresent() && code.isPresent()
                ? Optional.of(new MobileIpCheck(home.get(), agent, nai, spi.get(), key.get(), code.get()))
                : Optional.empty();
    }

    private static Optional<InetAddress> ipv4(Section s, String key) {
        return s.string(key).flatMap(text -> {
            try {
                InetAddress address = AddressLiterals.parseAddress(text);
                if (address instanceof Inet4Address) {
                    return Optional.of(address);
                }
                s.error(s.pathOf(key), "must be an IPv4 address (Mobile IPv4)");
            } catch (IllegalArgumentException e) {
                s.error(s.pathOf(key), e.getMessage());
            }
            return Optional.empty();
        });
    }
}
