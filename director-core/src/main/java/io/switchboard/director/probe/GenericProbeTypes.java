package io.switchboard.director.probe;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.ProbeType;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The engine's own probe types, which any service's reals may use: {@code ping}, {@code tcp},
 * {@code http}, {@code dns} and {@code udp} (IOS SLB's generic probes). Plug-in modules add their
 * protocols' types next to these.
 */
public final class GenericProbeTypes {

    /** In the order their keys are listed. */
    public static final List<ProbeType> ALL = List.of(
            ProbeType.of("ping", List.of(), s -> Optional.of(new ProbeCheck.Ping())),
            ProbeType.of("tcp", List.of(), s -> Optional.of(new ProbeCheck.TcpConnect())),
            ProbeType.of("http", List.of(
                    Key.string("path").defaultValue(Http.PATH).note("The path the GET asks for."),
                    Key.integer("expect-status", 100, 599).defaultValue(Http.STATUS)
                            .note("The status that passes (IOS: 401 for password-protected pages)."),
                    Key.string("host").byDefault("the real's address").note("The Host header.")),
                    s -> Optional.of(new ProbeCheck.Http(s.string("path").orElse(Http.PATH),
                            s.integer("expect-status").orElse(Http.STATUS), s.string("host")))),
            ProbeType.of("dns", List.of(
                    Key.string("name").required().note("The name an A query sent to the real looks up."),
                    Key.address("expect-address").required().note("The address the answer must hold.")),
                    GenericProbeTypes::dns),
            ProbeType.of("udp", List.of(
                    Key.string("send").required().note("The datagram sent: text, or `hex:` followed by hex digits."),
                    Key.string("expect").required().note("How the answer must start, written as `send`.")),
                    GenericProbeTypes::udp));

    /** An http probe's defaults. */
    private static final class Http {
        static final String PATH = "/";
        static final int STATUS = 200;
    }

    private GenericProbeTypes() {
    }

    private static Optional<ProbeCheck> dns(Section s) {
        boolean hasName = s.require("name", "required for a dns probe: the name to look up");
        boolean hasAddress = s.require("expect-address", "required for a dns probe: the address the answer must hold");
        Optional<String> lookup = hasName ? s.string("name") : Optional.empty();
        Optional<InetAddress> expect = hasAddress ? s.string("expect-address").flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                s.error(s.pathOf("expect-address"), e.getMessage());
                return Optional.empty();
            }
        }) : Optional.empty();
        return lookup.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Dns(lookup.get(), expect.get())) : Optional.empty();
    }

    private static Optional<ProbeCheck> udp(Section s) {
        boolean hasSend = s.require("send", "required for a udp probe: the bytes to send");
        boolean hasExpect = s.require("expect", "required for a udp probe: how the answer must start");
        Optional<byte[]> send = hasSend ? s.bytes("send") : Optional.empty();
        Optional<byte[]> expect = hasExpect ? s.bytes("expect") : Optional.empty();
        return send.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Udp(send.get(), expect.get())) : Optional.empty();
    }
}
