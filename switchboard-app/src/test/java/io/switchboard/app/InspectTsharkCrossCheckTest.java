package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.asn.r6.DefaultR6Message;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.asn.r6.R6PreAttachment;
import io.switchboard.codec.gtp.v0.DefaultGtpV0Message;
import io.switchboard.codec.gtp.v0.GtpV0Codec;
import io.switchboard.codec.gtp.v0.GtpV0MessageType;
import io.switchboard.codec.gtp.v0.GtpV0Tid;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.codec.gtp.v1.DefaultGtpV1Message;
import io.switchboard.codec.gtp.v1.GtpV1Codec;
import io.switchboard.codec.gtp.v1.GtpV1Ie;
import io.switchboard.codec.gtp.v1.GtpV1MessageType;
import io.switchboard.codec.gtp.v2.DefaultGtpV2Message;
import io.switchboard.codec.gtp.v2.GtpV2Codec;
import io.switchboard.codec.gtp.v2.GtpV2Ie;
import io.switchboard.codec.gtp.v2.GtpV2MessageType;
import io.switchboard.codec.mip.DefaultMipRegistrationReply;
import io.switchboard.codec.mip.DefaultMipRegistrationRequest;
import io.switchboard.codec.mip.MipExtension;
import io.switchboard.codec.mip.MipReplyCode;
import io.switchboard.codec.radius.DefaultRadiusPacket;
import io.switchboard.codec.radius.RadiusAttribute;
import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.pcap.PcapWriter;
import io.switchboard.pcap.SignalingInspector;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import picocli.CommandLine;

/**
 * The independent cross-check of issue 3: {@code switchboard inspect} and tshark (Wireshark's
 * dissectors, never our codecs) read every sample capture, and a capture of messages built with our own
 * encoders, and must agree on every frame and every field inspect prints. tshark's PDML output is used
 * rather than {@code -T json}: its JSON repeats the key {@code wimaxasncp.opid} for the R6 OP-ID and
 * message type and loses the message type, which only PDML's {@code showname} carries. tshark is
 * required: the test fails, never skips, without it ({@code .ci/run} installs it).
 */
class InspectTsharkCrossCheckTest {

    private static final String TSHARK = "/usr/bin/tshark";
    private static final Path CAPTURES = Path.of("src/test/resources/pcaps");
    private static final Set<Integer> PORTS = Set.of(3386, 2123, 1812, 1813, 1645, 1646, 3799, 1700, 434, 2231);
    private static final Map<String, String> TSHARK_PROTO = Map.of("gtpv0", "gtp", "gtpv1", "gtp", "gtpv2", "gtpv2",
            "radius", "radius", "mip", "mip", "r6", "wimaxasncp");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    /** tshark takes about a second per file: all sample captures are read at once, four at a time. */
    private static final Map<String, Future<Map<Integer, Element>>> TSHARK_RUNS = new ConcurrentHashMap<>();
    private static ExecutorService pool;

    @BeforeAll
    static void startTshark() throws Exception {
        assertThat(new File(TSHARK).canExecute()).as("tshark is required at " + TSHARK + " (apt-get install tshark, see .ci/run)").isTrue();
        pool = Executors.newFixedThreadPool(4);
        for (String capture : captures().toList()) {
            TSHARK_RUNS.put(capture, pool.submit(() -> tshark(CAPTURES.resolve(capture), release(capture))));
        }
    }

    @AfterAll
    static void stopPool() {
        pool.shutdownNow();
    }

    private static NwgRelease release(String capture) {
        return capture.contains("v1.0.0") ? NwgRelease.R1_0_V1_0_0 : null;
    }

    static Stream<String> captures() throws Exception {
        try (Stream<Path> files = Files.walk(CAPTURES)) {
            return files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng"))
                    .map(p -> CAPTURES.relativize(p).toString()).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("captures")
    void inspectAgreesWithTsharkOnEverySampleCapture(String capture) throws Exception {
        crossCheck(CAPTURES.resolve(capture), release(capture), TSHARK_RUNS.get(capture).get(2, TimeUnit.MINUTES));
    }

    @Test
    void inspectAgreesWithTsharkOnMessagesBuiltWithOurEncoders() throws Exception {
        Path file = dir.resolve("encoded.pcap");
        InetAddress sgsn = InetAddress.getByName("192.0.2.1");
        InetAddress ggsn = InetAddress.getByName("192.0.2.2");
        InetAddress v6a = InetAddress.getByName("2001:db8::1");
        InetAddress v6b = InetAddress.getByName("2001:db8::2");
        try (PcapWriter w = PcapWriter.create(file)) {
            // GTPv2 Create Session Request / Response (TS 29.274 §7.2.1, §7.2.2)
            w.udp(sgsn, 2123, ggsn, 2123, encodeV2(new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_REQUEST, 0,
                    0x123456, List.of(new GtpV2Ie.Imsi(0, "262011234567890"), new GtpV2Ie.Apn(0, "internet.mnc001.mcc262.gprs"),
                            new GtpV2Ie.Fteid(0, 10, 0xA1B2C3D4L, (Inet4Address) sgsn, null),
                            new GtpV2Ie.BearerContext(0, List.of(new GtpV2Ie.Ebi(0, 5)))))));
            w.udp(ggsn, 2123, sgsn, 2123, encodeV2(new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_RESPONSE,
                    0xA1B2C3D4L, 0x123456, List.of(new GtpV2Ie.Cause(0, 73, 0, new byte[0])))), 42);
            // over IPv6, and cut into IPv4 fragments
            w.udp(v6a, 2123, v6b, 2123, encodeV2(new DefaultGtpV2Message(GtpV2MessageType.CREATE_SESSION_REQUEST, 0, 7,
                    List.of(new GtpV2Ie.Imsi(0, "001010000000001")))));
            w.udpFragmented((Inet4Address) sgsn, 2123, (Inet4Address) ggsn, 2123, encodeV2(new DefaultGtpV2Message(
                    GtpV2MessageType.CREATE_SESSION_REQUEST, 0, 8, List.of(new GtpV2Ie.Imsi(0, "310150123456789"),
                            new GtpV2Ie.Apn(0, "a-rather-long-access-point-name.example.mnc015.mcc310.gprs")))), 32);
            // GTPv1 Create PDP Context Request / Response (TS 29.060 §7.3.1, §7.3.2)
            w.udp(sgsn, 2123, ggsn, 2123, encodeV1(new DefaultGtpV1Message(GtpV1MessageType.CREATE_PDP_CONTEXT_REQUEST, 0,
                    4711, List.of(new GtpV1Ie.Imsi("262420000000001"), new GtpV1Ie.TeidControlPlane(0x1001),
                            new GtpV1Ie.Nsapi(5), new GtpV1Ie.Apn("internet"), new GtpV1Ie.GsnAddress(sgsn),
                            new GtpV1Ie.GsnAddress(sgsn)))));
            w.udp(ggsn, 2123, sgsn, 2123, encodeV1(new DefaultGtpV1Message(GtpV1MessageType.CREATE_PDP_CONTEXT_RESPONSE,
                    0x1001, 4711, List.of(new GtpV1Ie.Cause(199)))));
            // GTPv0 Create PDP Context Request / Response (GSM 09.60 §7.5.1)
            long tid = GtpV0Tid.of("262420000000002", 6, GtpV0TidOrder.GSM_09_60);
            w.udp(sgsn, 3386, ggsn, 3386, encodeV0(new DefaultGtpV0Message(GtpV0MessageType.CREATE_PDP_CONTEXT_REQUEST,
                    99, 0, tid, List.of(new GtpV1Ie.Apn("internet")))));
            w.udp(ggsn, 3386, sgsn, 3386, encodeV0(new DefaultGtpV0Message(GtpV0MessageType.CREATE_PDP_CONTEXT_RESPONSE,
                    99, 0, tid, List.of(new GtpV1Ie.Cause(128)))));
            // RADIUS Access-Request and Accounting-Request (RFC 2865 §4.1, RFC 2866 §4.1)
            w.udp(sgsn, 40000, ggsn, 1812, encodeRadius(new DefaultRadiusPacket(RadiusCode.ACCESS_REQUEST, 17,
                    new byte[16], List.of(RadiusAttribute.text(RadiusAttributeType.USER_NAME, "alice@example.net"),
                            RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "491701234567")))));
            w.udp(sgsn, 40001, ggsn, 1813, encodeRadius(new DefaultRadiusPacket(RadiusCode.ACCOUNTING_REQUEST, 18,
                    new byte[16], List.of(RadiusAttribute.integer(RadiusAttributeType.ACCT_STATUS_TYPE, 1),
                            new RadiusAttribute(RadiusAttributeType.FRAMED_IP_ADDRESS.value(), new byte[] {10, 1, 2, 3}),
                            RadiusAttribute.text(RadiusAttributeType.ACCT_SESSION_ID, "sess-0001"),
                            RadiusAttribute.text(RadiusAttributeType.CALLING_STATION_ID, "491701234567")))));
            // Mobile IPv4 Registration Request / Reply (RFC 5944 §3.3, §3.4)
            w.udp(sgsn, 434, ggsn, 434, encodeMip(new DefaultMipRegistrationRequest(0, 1800, 0x0A000001, 0x0A0000FE,
                    0xC0000201, 0xE5F1A2B3C4D5E6F7L, List.of(MipExtension.nai("mn1@example.net")))));
            w.udp(ggsn, 434, sgsn, 434, encodeMip(new DefaultMipRegistrationReply(MipReplyCode.ACCEPTED, 1800, 0x0A000001,
                    0x0A0000FE, 0xE5F1A2B3C4D5E6F7L, List.of())));
            // WiMAX R6 MS_PreAttachment Req/Rsp/Ack (NWG R1.0 v1.2.x numbering)
            int t = 0x0101;
            for (R6PreAttachment m : R6PreAttachment.values()) {
                w.udp(sgsn, 2231, ggsn, 2231, encodeR6(DefaultR6Message.preAttachment(NwgRelease.R1_0_V1_2_1, m,
                        0x0A1B2C3D4E5FL, t++, List.of())));
            }
        }
        Map<Integer, JsonNode> inspected = crossCheck(file, null, tshark(file, null));
        assertThat(inspected).hasSize(15);
        assertThat(inspected.values()).filteredOn(m -> m.path("ip_fragments").asInt() > 1).hasSize(1);
        assertThat(inspected.values()).filteredOn(m -> m.get("src").asText().startsWith("[2001:db8::1]")).hasSize(1);
    }

    // ---- the comparison ----

    private Map<Integer, JsonNode> crossCheck(Path file, NwgRelease release, Map<Integer, Element> theirs)
            throws Exception {
        Map<Integer, JsonNode> ours = inspect(file, release);
        List<String> disagreements = new ArrayList<>();
        for (Map.Entry<Integer, Element> e : theirs.entrySet()) {
            if (!ours.containsKey(e.getKey())) {
                disagreements.add("frame " + e.getKey() + ": tshark decodes a signaling message, inspect prints none");
            }
        }
        for (Map.Entry<Integer, JsonNode> e : ours.entrySet()) {
            int frame = e.getKey();
            JsonNode message = e.getValue();
            Element packet = theirs.get(frame);
            String proto = message.get("proto").asText();
            if (message.has("error")) {
                // A message our codecs refuse: tshark must not have read it cleanly either. A message cut
                // short of its length field tshark reads as far as it goes without flagging it; there the
                // header fields both read must still agree.
                String error = message.get("error").asText();
                if (error.startsWith(SignalingInspector.INTERNAL_ERROR)) {
                    disagreements.add("frame " + frame + ": a codec failed: " + error);
                }
                if (packet != null && !malformed(packet)) {
                    if (!error.startsWith("truncated")) {
                        disagreements.add("frame " + frame + ": inspect says " + error
                                + ", tshark decodes it without error");
                    } else {
                        compareWhatBothRead(frame, proto, message, protos(packet, TSHARK_PROTO.get(proto)).get(0),
                                disagreements);
                    }
                }
                continue;
            }
            if (packet == null) {
                disagreements.add("frame " + frame + ": inspect prints " + proto + ", tshark decodes no such message");
                continue;
            }
            List<Element> protos = protos(packet, TSHARK_PROTO.get(proto));
            compare(frame, proto, message, protos.get(0), disagreements);
            if (message.has("piggybacked")) {
                if (protos.size() < 2) {
                    disagreements.add("frame " + frame + ": tshark sees no piggybacked message");
                } else {
                    compare(frame, proto, message.get("piggybacked"), protos.get(1), disagreements);
                }
            }
        }
        assertThat(disagreements).as(file + ": inspect and tshark disagree").isEmpty();
        return ours;
    }

    private static void compareWhatBothRead(int frame, String proto, JsonNode ours, Element tshark,
                                            List<String> out) {
        Map<String, String> expected = expected(proto, tshark);
        expected.forEach((key, value) -> {
            if (ours.has(key) && !ours.get(key).asText().equals(value)) {
                out.add("frame " + frame + " " + proto + " " + key + ": inspect " + ours.get(key) + ", tshark " + value);
            }
        });
    }

    private static void compare(int frame, String proto, JsonNode ours, Element tshark, List<String> out) {
        Map<String, String> expected = expected(proto, tshark);
        compareFields(frame, proto, ours, expected, out);
    }

    /** What tshark shows for the fields inspect prints, under inspect's names. */
    private static Map<String, String> expected(String proto, Element tshark) {
        Map<String, String> expected = new LinkedHashMap<>();
        switch (proto) {
            case "gtpv0", "gtpv1" -> {
                number(expected, "type", tshark, "gtp.message");
                number(expected, "seq", tshark, "gtp.seq_number");
                number(expected, "cause", tshark, "gtp.cause");
                text(expected, "apn", tshark, "gtp.apn");
                if (proto.equals("gtpv1")) {
                    number(expected, "teid", tshark, "gtp.teid");
                    text(expected, "imsi", tshark, "e212.imsi");
                } else {
                    // tshark prints the v0 TID as the IMSI digits followed by the NSAPI
                    String tid = show(tshark, "gtp.tid");
                    if (tid != null) {
                        expected.put("imsi+nsapi", tid);
                    }
                }
            }
            case "gtpv2" -> {
                number(expected, "type", tshark, "gtpv2.message_type");
                number(expected, "seq", tshark, "gtpv2.seq");
                number(expected, "teid", tshark, "gtpv2.teid");
                text(expected, "imsi", tshark, "e212.imsi");
                number(expected, "cause", tshark, "gtpv2.cause");
                text(expected, "apn", tshark, "gtpv2.apn");
            }
            case "radius" -> {
                number(expected, "code", tshark, "radius.code");
                number(expected, "id", tshark, "radius.id");
                text(expected, "user_name", tshark, "radius.User_Name");
                text(expected, "calling_station_id", tshark, "radius.Calling_Station_Id");
                text(expected, "framed_ip", tshark, "radius.Framed-IP-Address");
                number(expected, "acct_status_type", tshark, "radius.Acct_Status_Type");
                text(expected, "acct_session_id", tshark, "radius.Acct_Session_Id");
            }
            case "mip" -> {
                number(expected, "type", tshark, "mip.type");
                number(expected, "code", tshark, "mip.code");
                text(expected, "home_address", tshark, "mip.homeaddr");
                text(expected, "home_agent", tshark, "mip.haaddr");
                text(expected, "care_of_address", tshark, "mip.coa");
                text(expected, "nai", tshark, "mip.nai");
                Element ident = field(tshark, "mip.ident");
                if (ident != null) {
                    expected.put("identification", Long.toUnsignedString(Long.parseUnsignedLong(ident.getAttribute("value"), 16)));
                }
            }
            case "r6" -> {
                number(expected, "function_type", tshark, "wimaxasncp.function_type");
                number(expected, "transaction_id", tshark, "wimaxasncp.transaction_id");
                text(expected, "msid", tshark, "wimaxasncp.msid");
                List<Element> opid = fields(tshark, "wimaxasncp.opid");
                if (!opid.isEmpty()) {
                    expected.put("op_id", String.valueOf(Long.decode(opid.get(0).getAttribute("show"))));
                }
                if (opid.size() > 1) {
                    Matcher m = Pattern.compile("\\((\\d+)\\)$").matcher(opid.get(1).getAttribute("showname"));
                    if (m.find()) {
                        expected.put("type", m.group(1));
                    }
                }
            }
            default -> throw new IllegalArgumentException(proto);
        }
        return expected;
    }

    private static void compareFields(int frame, String proto, JsonNode ours, Map<String, String> expected,
                                      List<String> out) {
        Map<String, String> actual = new LinkedHashMap<>();
        for (String key : expected.keySet()) {
            if (key.equals("imsi+nsapi")) {
                actual.put(key, ours.path("imsi").asText("") + Integer.toHexString(ours.path("nsapi").asInt()));
            } else if (ours.has(key)) {
                actual.put(key, ours.get(key).asText());
            }
        }
        // and nothing inspect prints that tshark does not have
        for (String key : List.of("type", "seq", "teid", "imsi", "cause", "apn", "code", "id", "user_name",
                "calling_station_id", "framed_ip", "acct_status_type", "acct_session_id", "home_address", "home_agent",
                "care_of_address", "identification", "nai", "function_type", "op_id", "msid", "transaction_id")) {
            boolean v0Imsi = proto.equals("gtpv0") && key.equals("imsi");
            if (ours.has(key) && !expected.containsKey(key) && !v0Imsi) {
                actual.put(key, ours.get(key).asText());
            }
        }
        if (!actual.equals(expected)) {
            out.add("frame " + frame + " " + proto + ": inspect " + actual + ", tshark " + expected);
        }
    }

    private static void number(Map<String, String> out, String key, Element proto, String field) {
        String show = show(proto, field);
        if (show != null) {
            out.put(key, String.valueOf(Long.decode(show.trim())));
        }
    }

    private static void text(Map<String, String> out, String key, Element proto, String field) {
        String show = show(proto, field);
        if (show != null) {
            out.put(key, show);
        }
    }

    private static String show(Element proto, String name) {
        Element f = field(proto, name);
        return f == null ? null : f.getAttribute("show");
    }

    private static Element field(Element proto, String name) {
        List<Element> all = fields(proto, name);
        return all.isEmpty() ? null : all.get(0);
    }

    /** The fields of that name in document order, not counting those of a piggybacked message's own proto. */
    private static List<Element> fields(Element proto, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = proto.getElementsByTagName("field");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element f = (Element) nodes.item(i);
            if (name.equals(f.getAttribute("name"))) {
                out.add(f);
            }
        }
        return out;
    }

    private static List<Element> protos(Element packet, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = packet.getElementsByTagName("proto");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element p = (Element) nodes.item(i);
            if (name.equals(p.getAttribute("name"))) {
                out.add(p);
            }
        }
        return out;
    }

    private static boolean malformed(Element packet) {
        if (!protos(packet, "_ws.malformed").isEmpty()) {
            return true;
        }
        NodeList fields = packet.getElementsByTagName("field");
        for (int i = 0; i < fields.getLength(); i++) {
            Element f = (Element) fields.item(i);
            String name = f.getAttribute("name");
            if (name.startsWith("_ws.malformed") || name.startsWith("_ws.expert") && f.getAttribute("showname")
                    .toLowerCase().contains("error")) {
                return true;
            }
            if (name.equals("_ws.expert.severity") && "8388608".equals(f.getAttribute("show"))) {
                return true;
            }
        }
        return false;
    }

    // ---- running the two ----

    private static Map<Integer, JsonNode> inspect(Path file, NwgRelease release) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(List.of("inspect", file.toString()));
        if (release != null) {
            args.add("--nwg-release=" + release.name());
        }
        int exit = cli.execute(args.toArray(String[]::new));
        assertThat(exit).as(err.toString()).isZero();
        Map<Integer, JsonNode> byFrame = new LinkedHashMap<>();
        String[] lines = out.toString().split("\n");
        assertThat(lines[lines.length - 1]).startsWith("{\"summary\":");
        for (int i = 0; i < lines.length - 1; i++) {
            JsonNode node = JSON.readTree(lines[i]);
            if (node.has("proto")) {
                assertThat(byFrame.put(node.get("frame").asInt(), node)).as("one object per frame").isNull();
            }
        }
        return byFrame;
    }

    /** The packets in which tshark decodes one of our protocols on one of our ports, by frame number. */
    private static Map<Integer, Element> tshark(Path file, NwgRelease release) throws Exception {
        List<String> command = new ArrayList<>(List.of(TSHARK, "-r", file.toString(), "-T", "pdml",
                "-d", "udp.port==2231,wimaxasncp"));
        if (release == NwgRelease.R1_0_V1_0_0) {
            command.addAll(List.of("-o", "wimaxasncp.nwg_version:R1.0 v1.0.0"));
        }
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] pdml = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("tshark exit status").isZero();
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(pdml));
        Map<Integer, Element> out = new HashMap<>();
        NodeList packets = doc.getElementsByTagName("packet");
        for (int i = 0; i < packets.getLength(); i++) {
            Element packet = (Element) packets.item(i);
            List<Element> udp = protos(packet, "udp");
            if (udp.isEmpty()) {
                continue;
            }
            int src = Integer.parseInt(show(udp.get(0), "udp.srcport"));
            int dst = Integer.parseInt(show(udp.get(0), "udp.dstport"));
            if (!PORTS.contains(src) && !PORTS.contains(dst)) {
                continue;
            }
            boolean ours = Stream.of("gtp", "gtpv2", "radius", "mip", "wimaxasncp")
                    .anyMatch(p -> !protos(packet, p).isEmpty());
            if (ours) {
                Element frame = protos(packet, "frame").get(0);
                out.put(Integer.parseInt(show(frame, "frame.number")), packet);
            }
        }
        return out;
    }

    // ---- our encoders ----

    private static byte[] bytes(java.util.function.Consumer<ByteBuf> encoder) {
        ByteBuf buf = Unpooled.buffer();
        try {
            encoder.accept(buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static byte[] encodeV2(DefaultGtpV2Message m) {
        return bytes(b -> GtpV2Codec.encode(m, b));
    }

    private static byte[] encodeV1(DefaultGtpV1Message m) {
        return bytes(b -> GtpV1Codec.encode(m, b));
    }

    private static byte[] encodeV0(DefaultGtpV0Message m) {
        return bytes(b -> GtpV0Codec.encode(m, b));
    }

    private static byte[] encodeRadius(DefaultRadiusPacket p) {
        return bytes(p::encode);
    }

    private static byte[] encodeMip(io.switchboard.codec.mip.MipMessage m) {
        return bytes(m::encode);
    }

    private static byte[] encodeR6(DefaultR6Message m) {
        return bytes(m::encode);
    }

}
