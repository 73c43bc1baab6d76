package io.switchboard.app.config;

import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Binds one {@code probes.NAME} section: the common keys (interval, timeout, failures, port) and the
 * keys of its type, each type's in a function of its own; a key of another type is an error at its
 * path. All problems go to the error list given at construction.
 */
final class ProbeBinder {

    /** The keys each probe type takes besides the common ones. */
    private static final Map<String, List<String>> PROBE_TYPE_KEYS = Map.of(
            "ping", List.of(), "tcp", List.of(), "http", List.of("path", "expect-status", "host"),
            "dns", List.of("name", "expect-address"), "udp", List.of("send", "expect"),
            "radius", List.of("secret", "user", "password"),
            "mip", List.of("home-address", "home-agent", "nai", "spi", "key", "expect-code"),
            "gtp-echo", List.of("version", "recovery", "purge-on-restart"));
    private final List<ConfigError> errors;

    ProbeBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    /** The probe of section {@code s}, or empty when it has errors (each added to the list). */
    Optional<ProbeConfig> bind(String name, Section s) {
        if (!s.require("type", "required: one of " + String.join(", ", PROBE_TYPE_KEYS.keySet().stream().sorted().toList()))) {
            return Optional.empty();
        }
        Optional<String> type = s.string("type");
        if (type.isEmpty()) {
            return Optional.empty();
        }
        List<String> own = PROBE_TYPE_KEYS.get(type.get());
        if (own == null) {
            error(s.pathOf("type"), "unknown probe type '" + type.get() + "' (known: "
                    + String.join(", ", PROBE_TYPE_KEYS.keySet().stream().sorted().toList()) + ")");
            return Optional.empty();
        }
        PROBE_TYPE_KEYS.forEach((otherType, keys) -> keys.stream()
                .filter(key -> !own.contains(key) && s.has(key))
                .forEach(key -> error(s.pathOf(key), "only for probes of type " + otherType)));
        Duration interval = s.positiveDuration("interval").orElse(ProbeConfig.DEFAULT_INTERVAL);
        Duration timeout = s.positiveDuration("timeout").orElse(ProbeConfig.DEFAULT_TIMEOUT);
        int failures = s.integer("failures", 1, 100).orElse(ProbeConfig.DEFAULT_FAILURES);
        OptionalInt port = s.optionalInt("port", 1, 65535);
        Optional<ProbeCheck> check = switch (type.get()) {
            case "ping" -> Optional.of(new ProbeCheck.Ping());
            case "tcp" -> Optional.of(new ProbeCheck.TcpConnect());
            case "http" -> Optional.of(new ProbeCheck.Http(s.string("path").orElse("/"),
                    s.integer("expect-status", 100, 599).orElse(200), s.string("host")));
            case "dns" -> dnsCheck(s);
            case "radius" -> radiusCheck(s);
            case "mip" -> mobileIpCheck(s);
            case "gtp-echo" -> gtpEchoCheck(s);
            default -> udpCheck(s);
        };
        return check.map(c -> new ProbeConfig(name, c, interval, timeout, failures, port));
    }

    private Optional<ProbeCheck> dnsCheck(Section s) {
        boolean hasName = s.require("name", "required for a dns probe: the name to look up");
        boolean hasAddress = s.require("expect-address", "required for a dns probe: the address the answer must hold");
        Optional<String> lookup = hasName ? s.string("name") : Optional.empty();
        Optional<InetAddress> expect = hasAddress ? s.string("expect-address").flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                error(s.pathOf("expect-address"), e.getMessage());
                return Optional.empty();
            }
        }) : Optional.empty();
        return lookup.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Dns(lookup.get(), expect.get())) : Optional.empty();
    }

    /** Status-Server, or an Access-Request when {@code user} is given. */
    private Optional<ProbeCheck> radiusCheck(Section s) {
        // Without a secret of its own, the probe uses each real's secret.
        Optional<String> secret = s.has("secret") ? s.string("secret") : Optional.of("");
        Optional<String> user = s.string("user");
        Optional<String> password = s.string("password");
        if (password.isPresent() && user.isEmpty()) {
            error(s.pathOf("password"), "only with user (an Access-Request probe)");
            return Optional.empty();
        }
        return secret.map(value -> new ProbeCheck.Radius(value, user, password));
    }

    /** A Mobile IP registration probe (Home Agent Director). */
    private Optional<ProbeCheck> mobileIpCheck(Section s) {
        boolean hasHome = s.require("home-address", "required for a mip probe: the probe mobile node's home address");
        boolean hasSpi = s.require("spi", "required for a mip probe: the MN-HA security parameter index");
        boolean hasKey = s.require("key", "required for a mip probe: the MN-HA key");
        Optional<InetAddress> home = hasHome ? s.string("home-address").flatMap(t -> ipv4(t, s.pathOf("home-address")))
                : Optional.empty();
        Optional<InetAddress> agent = s.string("home-agent").flatMap(t -> ipv4(t, s.pathOf("home-agent")));
        boolean agentOk = !s.has("home-agent") || agent.isPresent();
        Optional<String> nai = s.string("nai");
        boolean naiOk = !s.has("nai") || nai.isPresent();
        if (nai.isPresent() && nai.get().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
            error(s.pathOf("nai"), "must be at most 255 bytes");
            naiOk = false;
        }
        Optional<Integer> spi = hasSpi ? s.integer("spi", 256, Integer.MAX_VALUE) : Optional.empty();
        Optional<byte[]> key = hasKey ? s.string("key").flatMap(text -> probeBytes(text, s.pathOf("key")))
                : Optional.empty();
        Optional<Integer> code = s.has("expect-code") ? s.integer("expect-code", 0, 255) : Optional.of(0);
        return home.isPresent() && agentOk && naiOk && spi.isPresent() && key.isPresent() && code.isPresent()
                ? Optional.of(new ProbeCheck.MobileIp(home.get(), agent, nai, spi.get(), key.get(), code.get()))
                : Optional.empty();
    }

    /** A GTP Echo probe with restart-counter tracking. */
    private Optional<ProbeCheck> gtpEchoCheck(Section s) {
        if (!s.require("version", "required for a gtp-echo probe: 1 (GTPv1-C, GGSNs) or 2 (GTPv2-C, PGWs/SGWs)")) {
            return Optional.empty();
        }
        Optional<Integer> version = s.integer("version", 1, 2);
        Optional<Integer> recovery = s.has("recovery") ? s.integer("recovery", 0, 255) : Optional.of(0);
        if (s.has("recovery") && version.isPresent() && version.get() == 1) {
            error(s.pathOf("recovery"), "only for version 2 (a GTPv1 Echo Request carries no Recovery)");
            return Optional.empty();
        }
        Optional<Boolean> purge = s.has("purge-on-restart") ? s.bool("purge-on-restart") : Optional.of(true);
        return version.isPresent() && recovery.isPresent() && purge.isPresent()
                ? Optional.of(new ProbeCheck.GtpEcho(version.get(), recovery.get(), purge.get())) : Optional.empty();
    }

    private Optional<InetAddress> ipv4(String text, String path) {
        try {
            InetAddress address = AddressLiterals.parseAddress(text);
            if (address instanceof java.net.Inet4Address) {
                return Optional.of(address);
            }
            error(path, "must be an IPv4 address (Mobile IPv4)");
        } catch (IllegalArgumentException e) {
            error(path, e.getMessage());
        }
        return Optional.empty();
    }

    private Optional<ProbeCheck> udpCheck(Section s) {
        boolean hasSend = s.require("send", "required for a udp probe: the bytes to send");
        boolean hasExpect = s.require("expect", "required for a udp probe: how the answer must start");
        Optional<byte[]> send = hasSend ? s.string("send").flatMap(text -> probeBytes(text, s.pathOf("send")))
                : Optional.empty();
        Optional<byte[]> expect = hasExpect ? s.string("expect").flatMap(text -> probeBytes(text, s.pathOf("expect")))
                : Optional.empty();
        return send.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Udp(send.get(), expect.get())) : Optional.empty();
    }

    /** Text as UTF-8, or {@code hex:0a0b...} for binary payloads. */
    private Optional<byte[]> probeBytes(String text, String path) {
        if (!text.startsWith("hex:")) {
            return Optional.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        try {
            return Optional.of(java.util.HexFormat.of().parseHex(text.substring(4)));
        } catch (IllegalArgumentException e) {
            error(path, "hex: must be followed by an even number of hex digits");
            return Optional.empty();
        }
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
