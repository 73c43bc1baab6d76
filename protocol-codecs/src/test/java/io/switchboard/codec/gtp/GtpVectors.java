package io.switchboard.codec.gtp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.testing.CaptureReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The GTP test vectors: hand-built commented hex from {@code vectors/gtp-vectors.txt}, and the GTP-C
 * datagrams of the captures under {@code pcaps/}. Also the buffer plumbing every GTP test uses, so
 * that each buffer a test allocates is pooled (tracked by the paranoid leak detector) and released.
 */
public final class GtpVectors {

    /** One message (or piggybacked datagram) to test with. */
    public record Vector(String name, int version, byte[] bytes) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String[] V0_CAPTURES = {
        "/pcaps/gtpv0/gtp_control_prime_v0-echo-only.pcap", "/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap"};
    private static final String[] V1_CAPTURES = {
        "/pcaps/gtpv1/gtp_create_pdp_ctx.pcap", "/pcaps/gtpv1/gtp10_not_0xff.pcap", "/pcaps/gtpv1/gtp.pcap",
        "/pcaps/gtpv1/echo_request.pcap", "/pcaps/osmo-ggsn/sgsnemu-v1-v0.pcap"};
    private static final String[] V2_CAPTURES = {
        "/pcaps/gtpv2/gtp_c.pcap", "/pcaps/gtpv2/nsa_connection.pcap", "/pcaps/gtpv2/cp_in.pcap",
        "/pcaps/gtpv2/gtpv2.pcap", "/pcaps/gtpv2/inbound_roaming_01_210505_130828-1.pcapng"};

    /** gtpv2.pcap frame 4: P flag set, followed by 2 octets that are no message (tshark: malformed). */
    public static final String GTPV2_MALFORMED_PIGGYBACK = "/pcaps/gtpv2/gtpv2.pcap#4";
    /** gtpv2.pcap frame 6: a Modify Bearer Request declaring 42 octets in a 12-octet UDP payload. */
    public static final String GTPV2_TRUNCATED = "/pcaps/gtpv2/gtpv2.pcap#6";
    private static final List<String> BAD_FRAMES = List.of(GTPV2_MALFORMED_PIGGYBACK, GTPV2_TRUNCATED);

    private GtpVectors() {
    }

    /** The hand-built vectors by name, in file order. */
    public static Map<String, byte[]> handBuilt() {
        Map<String, byte[]> vectors = new LinkedHashMap<>();
        String name = null;
        StringBuilder hex = new StringBuilder();
        for (String line : resource("/vectors/gtp-vectors.txt").split("\n")) {
            if (line.startsWith("## ")) {
                if (name != null) {
                    vectors.put(name, ByteBufUtil.decodeHexDump(hex));
                }
                name = line.substring(3).trim();
                hex.setLength(0);
                continue;
            }
            int comment = line.indexOf('#');
            String data = comment >= 0 ? line.substring(0, comment) : line;
            if (name != null) {
                hex.append(data.replaceAll("\\s+", ""));
            }
        }
        if (name != null) {
            vectors.put(name, ByteBufUtil.decodeHexDump(hex));
        }
        return vectors;
    }

    public static byte[] handBuilt(String name) {
        byte[] bytes = handBuilt().get(name);
        if (bytes == null) {
            throw new IllegalArgumentException("no vector " + name);
        }
        return bytes;
    }

    /** GTP-C datagrams of a capture: UDP ports 2123 and 3386 (GTP-U on 2152 only for its echo/error messages). */
    public static List<CaptureReader.Datagram> capture(String resource) {
        List<CaptureReader.Datagram> out = new ArrayList<>();
        for (CaptureReader.Datagram d : CaptureReader.resource(resource)) {
            boolean control = d.sourcePort() == 2123 || d.destinationPort() == 2123 || d.sourcePort() == 3386
                    || d.destinationPort() == 3386;
            boolean userPlaneSignalling = (d.sourcePort() == 2152 || d.destinationPort() == 2152)
                    && d.payload().length > 1 && (d.payload()[1] & 0xFF) != 0xFF;
            if (control || userPlaneSignalling) {
                out.add(d);
            }
        }
        return out;
    }

    /** Every vector of one version: the hand-built ones and the well-formed datagrams of the captures. */
    public static List<Vector> all(int version) {
        List<Vector> out = new ArrayList<>();
        handBuilt().forEach((name, bytes) -> {
            if (name.startsWith("v" + version + "-")) {
                out.add(new Vector(name, version, bytes));
            }
        });
        String[] captures = version == 0 ? V0_CAPTURES : version == 1 ? V1_CAPTURES : V2_CAPTURES;
        for (String capture : captures) {
            for (CaptureReader.Datagram d : capture(capture)) {
                String name = capture + "#" + d.frame();
                if (((d.payload()[0] & 0xFF) >> 5) == version && !BAD_FRAMES.contains(name)) {
                    out.add(new Vector(name, version, d.payload()));
                }
            }
        }
        return out;
    }

    /** The bytes of one datagram of a capture, by frame number. */
    public static byte[] frame(String capture, int frame) {
        return capture(capture).stream().filter(d -> d.frame() == frame).findFirst()
                .map(CaptureReader.Datagram::payload).orElseThrow();
    }

    public static List<Vector> all() {
        List<Vector> out = new ArrayList<>(all(0));
        out.addAll(all(1));
        out.addAll(all(2));
        return out;
    }

    /** A pooled (leak-tracked) copy of {@code bytes}; the caller releases it. */
    public static ByteBuf pooled(byte[] bytes) {
        ByteBuf buf = ByteBufAllocator.DEFAULT.buffer(bytes.length);
        buf.writeBytes(bytes);
        return buf;
    }

    /** Runs an encoder into a pooled buffer and returns what it wrote; the buffer is released. */
    public static byte[] encoded(Consumer<ByteBuf> encoder) {
        ByteBuf out = ByteBufAllocator.DEFAULT.buffer();
        try {
            encoder.accept(out);
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** A decode step that may reject its input. */
    public interface Decoding<T> {
        T apply(ByteBuf buf) throws DecodeException;
    }

    /** Decodes {@code bytes} from a pooled buffer that is released afterwards; checks the reader index did not move. */
    public static <T> T decode(byte[] bytes, Decoding<T> decoding) throws DecodeException {
        ByteBuf buf = pooled(bytes);
        try {
            T result = decoding.apply(buf);
            if (buf.readerIndex() != 0) {
                throw new AssertionError("decoder moved the reader index to " + buf.readerIndex());
            }
            return result;
        } finally {
            buf.release();
        }
    }

    public static String hex(byte[] bytes) {
        return ByteBufUtil.hexDump(bytes);
    }

    private static String resource(String name) {
        try (InputStream in = GtpVectors.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
