package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.pcap.PcapWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code switchboard whatif}: sample captures and a crafted many-subscriber capture through
 * {@code whatif/lab.yaml} (two AAA reals and two GTP-C reals, weights 1/1, round robin).
 */
class WhatIfCommandTest {

    private static final String LAB = "src/test/resources/whatif/lab.yaml";
    private static final String PCAPS = "src/test/resources/pcaps/";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private List<JsonNode> lines() throws Exception {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.toString().split("\n")) {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    private JsonNode summary() throws Exception {
        List<JsonNode> lines = lines();
        return lines.get(lines.size() - 1).get("summary");
    }

    @Test
    void radiusSampleCapturesKeepEachUserOnOneReal() throws Exception {
        // radius_localhost: user steve, 11 Access-Requests to 127.0.0.1:1812; 4 carry a
        // Message-Authenticator made with another secret than testing123; answers go to the NAS's port.
        // RADIUS-RFC4675: three users, one request each.
        assertThat(execute("whatif", "-c", LAB, PCAPS + "radius/radius_localhost.pcap",
                PCAPS + "radius/RADIUS-RFC4675.pcap")).isZero();
        List<JsonNode> lines = lines();
        JsonNode first = lines.get(0);
        assertThat(first.get("file").asText()).endsWith("radius_localhost.pcap");
        assertThat(first.get("frame").asInt()).isEqualTo(1);
        assertThat(first.get("vserver").asText()).isEqualTo("radius-auth");
        assertThat(first.get("key_kind").asText()).isEqualTo("username");
        assertThat(first.get("key").asText()).isEqualTo("steve");
        assertThat(first.get("real").asText()).isEqualTo("aaa/10.0.0.2:1812");
        assertThat(first.get("reason").asText()).isEqualTo("predictor");
        assertThat(lines).filteredOn(n -> "steve".equals(n.path("key").asText()))
                .allSatisfy(n -> assertThat(n.get("real").asText()).isEqualTo("aaa/10.0.0.2:1812"));
        JsonNode summary = summary();
        assertThat(summary.get("requests").asInt()).isEqualTo(14);
        // Round robin over new keys: steve, bob-tagged, bob-untagged, bob-invalid -> .2, .3, .2, .3
        assertThat(summary.at("/per_real/aaa~110.0.0.2:1812").asInt()).isEqualTo(8);
        assertThat(summary.at("/per_real/aaa~110.0.0.3:1812").asInt()).isEqualTo(2);
        assertThat(summary.at("/reasons/sticky").asInt()).isEqualTo(6);
        assertThat(summary.at("/reasons/predictor").asInt()).isEqualTo(4);
        assertThat(summary.at("/reasons/dropped:radius-bad-message-authenticator").asInt()).isEqualTo(4);
        assertThat(summary.get("bindings_created").asInt()).isEqualTo(4);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
    }

    @Test
    void gtpv2SampleCaptureThroughTheGenericUdpVirtualServer() throws Exception {
        // nsa_connection: one MME (192.168.61.149) sends 4 GTPv2 requests to port 2123; the answers
        // go back to its own port, and are known as answers by their source, the virtual server's port.
        assertThat(execute("whatif", "-c", LAB, PCAPS + "gtpv2/nsa_connection.pcap")).isZero();
        JsonNode summary = summary();
        assertThat(summary.get("requests").asInt()).isEqualTo(4);
        assertThat(summary.at("/per_real/gw~110.0.1.2:2123").asInt()).isEqualTo(4);
        assertThat(summary.get("not_for_a_virtual_server").asInt()).isZero();
        assertThat(summary.get("answers_skipped").asInt()).isEqualTo(4);
        assertThat(summary.get("bindings_created").asInt()).isEqualTo(1);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
    }

    @Test
    void gtpAnswersSentToPort2123AreToldApartByTheirMessageType() throws Exception {
        // Three peers exchange GTPv2 Echo Request / Echo Response, 2123 to 2123 both ways.
        Path file = dir.resolve("echo.pcap");
        InetAddress gw = InetAddress.getByName("192.0.2.1");
        try (PcapWriter writer = PcapWriter.create(file)) {
            for (int seq = 1; seq <= 3; seq++) {
                InetAddress peer = InetAddress.getByName("198.51.100." + seq);
                writer.udp(peer, 2123, gw, 2123, gtpv2Echo(1, seq));
                writer.udp(gw, 2123, peer, 2123, gtpv2Echo(2, seq));
            }
        }
        assertThat(execute("whatif", "-c", LAB, file.toString())).isZero();
        JsonNode summary = summary();
        assertThat(summary.get("requests").asInt()).isEqualTo(3);
        assertThat(summary.get("answers_skipped").asInt()).isEqualTo(3);
        assertThat(summary.at("/per_real/gw~110.0.1.2:2123").asInt()).isEqualTo(2);
        assertThat(summary.at("/per_real/gw~110.0.1.3:2123").asInt()).isEqualTo(1);
    }

    /** A GTPv2 Echo Request (1) or Response (2) with a Recovery IE (TS 29.274 §7.1.1). */
    static byte[] gtpv2Echo(int type, int sequence) {
        return new byte[] {0x40, (byte) type, 0, 9, 0, 0, (byte) sequence, 0, 3, 0, 1, 0, 7};
    }

    @Test
    void aResourceCauseInTheCapturesAnswerReassignsTheCreateAndFailsTheReal() throws Exception {
        // crafted/gtpv2-resource-cause.pcap (see crafted/README.md): IMSI ...001's Create is answered
        // with cause 73; IMSI ...002 is created, modified and deleted by its TEID; IMSI ...003 is created.
        assertThat(execute("whatif", "-c", "src/test/resources/whatif/gtp-inspect.yaml",
                PCAPS + "crafted/gtpv2-resource-cause.pcap")).isZero();
        List<JsonNode> lines = lines();
        JsonNode refused = lines.get(0);
        assertThat(refused.get("frame").asInt()).isEqualTo(1);
        assertThat(refused.get("key").asText()).isEqualTo("001010000000001");
        assertThat(refused.get("reason").asText()).isEqualTo("reassigned");
        assertThat(refused.get("refused_by").get(0).asText()).isEqualTo("sgw/10.0.2.2:2123");
        assertThat(refused.get("real").asText()).isEqualTo("sgw/10.0.2.3:2123");
        // The Modify and Delete reach the real holding the session: the simulated MME learnt the
        // director's TEID from the relayed Create answer, as a live MME would.
        assertThat(lines.subList(1, 4)).extracting(n -> n.get("frame").asInt() + " " + n.get("reason").asText()
                + " " + n.get("answer").asText()).containsExactly("3 predictor captured", "5 sticky captured",
                "7 sticky captured");
        JsonNode summary = summary();
        assertThat(summary.at("/per_real/sgw~110.0.2.3:2123").asInt()).isEqualTo(5);
        assertThat(summary.at("/per_real/sgw~110.0.2.2:2123").isMissingNode()).isTrue();
        assertThat(summary.get("reassigned_after_refusal").asInt()).isEqualTo(1);
        assertThat(summary.get("answers_used").asInt()).isEqualTo(5);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
    }

    @Test
    void framedIpAddressesAreLearntFromTheCapturesAccessAccepts() throws Exception {
        // radius_localhost: steve's Access-Accepts carry Framed-IP-Address 172.16.3.33 (tshark);
        // the simulated real signs them with its secret, and the plug-in learns the binding.
        assertThat(execute("whatif", "-c", LAB, "--quiet", PCAPS + "radius/radius_localhost.pcap")).isZero();
        JsonNode summary = summary();
        assertThat(summary.get("answers_used").asInt()).isEqualTo(7);
        assertThat(summary.get("bindings_learnt_from_answers").asInt()).isEqualTo(1);
        // Its server signs its Access-Challenges, then sends Access-Accepts/Rejects unsigned: with the
        // real's require-message-authenticator at its default (auto: required once it signed) those
        // are refused as BlastRADIUS forgeries would be.
        assertThat(summary.at("/answers_refused/radius-missing-message-authenticator").asInt()).isEqualTo(3);
    }

    @Test
    void withoutAnswersInTheCaptureTheRealsAccept() throws Exception {
        assertThat(execute("whatif", "-c", LAB, subscribers(3, 1).toString())).isZero();
        assertThat(lines().subList(0, 3)).allSatisfy(n -> assertThat(n.get("answer").asText()).isEqualTo("accepted"));
        assertThat(summary().get("answers_used").asInt()).isZero();
    }

    @Test
    void aVirtualServerOnOneAddressTakesOnlyWhatWasSentToIt() throws Exception {
        assertThat(execute("whatif", "-c", "src/test/resources/whatif/fixed-address.yaml",
                PCAPS + "radius/radius_localhost.pcap")).isZero();
        assertThat(summary().get("requests").asInt()).isZero();
        assertThat(summary().get("not_for_a_virtual_server").asInt()).isEqualTo(19);
    }

    @Test
    void manySubscribersSpreadEvenlyAndStayPut() throws Exception {
        Path capture = subscribers(50, 4);
        assertThat(execute("whatif", "-c", LAB, capture.toString())).isZero();
        JsonNode summary = summary();
        assertThat(summary.get("requests").asInt()).isEqualTo(200);
        assertThat(summary.at("/per_real/aaa~110.0.0.2:1812").asInt()).isEqualTo(100);
        assertThat(summary.at("/per_real/aaa~110.0.0.3:1812").asInt()).isEqualTo(100);
        assertThat(summary.at("/reasons/predictor").asInt()).isEqualTo(50);
        assertThat(summary.at("/reasons/sticky").asInt()).isEqualTo(150);
        assertThat(summary.get("bindings_created").asInt()).isEqualTo(50);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
    }

    @Test
    void aFailedRealsSubscribersAreReassignedOnceAndStayOnTheirNewReal() throws Exception {
        Path capture = subscribers(50, 4);
        // Frames 1-50 are round 1, 51-100 round 2: 10.0.0.2 leaves as round 3 begins.
        assertThat(execute("whatif", "-c", LAB, "--fail", "10.0.0.2:1812@101", capture.toString())).isZero();
        List<JsonNode> lines = lines();
        JsonNode summary = summary();
        assertThat(summary.at("/per_real/aaa~110.0.0.2:1812").asInt()).isEqualTo(50);
        assertThat(summary.at("/per_real/aaa~110.0.0.3:1812").asInt()).isEqualTo(150);
        assertThat(summary.at("/reasons/reassigned").asInt()).isEqualTo(25);
        assertThat(summary.at("/reasons/sticky").asInt()).isEqualTo(125);
        assertThat(summary.get("bindings_created").asInt()).isEqualTo(75);
        assertThat(summary.get("stickiness_violations").asInt()).isZero();
        assertThat(lines).filteredOn(n -> n.path("reason").asText().equals("reassigned"))
                .allSatisfy(n -> assertThat(n.get("frame").asInt()).isBetween(101, 150));
    }

    @Test
    void aFailureCanBeGivenAsCaptureTime() throws Exception {
        Path capture = subscribers(50, 4); // frames 1 ms apart: frame 101 is 100 ms after frame 1
        assertThat(execute("whatif", "-c", LAB, "--quiet", "--fail", "aaa/10.0.0.2:1812@+100ms", capture.toString()))
                .isZero();
        assertThat(out.toString().lines().count()).isEqualTo(1);
        assertThat(summary().at("/reasons/reassigned").asInt()).isEqualTo(25);
        assertThat(summary().at("/per_real/aaa~110.0.0.2:1812").asInt()).isEqualTo(50);
        err.getBuffer().setLength(0);
        assertThat(execute("whatif", "-c", LAB, "--fail", "10.0.0.2:1812@soon", capture.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("+TIME");
    }

    @Test
    void bindingsAFullTableRefusedAreNoViolationsAndTheLinesSaySo() throws Exception {
        // 10 of the 51 subscribers get a binding; the table refuses the others, which are chosen
        // afresh by round robin in each round, and with 41 picks between their turns each lands on
        // the other real: the live policy kept no binding for them, so that is no violation.
        Path capture = subscribers(51, 2);
        assertThat(execute("whatif", "-c", "src/test/resources/whatif/small-table.yaml", capture.toString()))
                .isZero();
        List<JsonNode> second = lines().subList(51, 102);
        assertThat(second).filteredOn(n -> n.has("binding")).hasSize(41)
                .allSatisfy(n -> assertThat(n.get("binding").asText()).isEqualTo("refused"));
        assertThat(second).filteredOn(n -> !n.has("binding"))
                .allSatisfy(n -> assertThat(n.get("reason").asText()).isEqualTo("sticky"));
        assertThat(summary().get("stickiness_violations").asInt()).isZero();
        assertThat(summary().at("/bindings_ended/refused").asInt()).isEqualTo(41);
    }

    @Test
    void aSubscriberWhoseSessionEndedAttachesAfreshWithoutAViolation() throws Exception {
        // crafted/gtpv2-reattach.pcap: IMSI ...009 is created (frame 1), deleted (3), created again (5)
        // and modified (7). unstick-on-delete (the default) ends its binding with the Delete.
        assertThat(execute("whatif", "-c", "src/test/resources/whatif/gtp-inspect.yaml",
                PCAPS + "crafted/gtpv2-reattach.pcap")).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines.subList(0, 4)).extracting(n -> n.get("frame").asInt() + " " + n.get("real").asText() + " "
                + n.get("reason").asText() + " " + n.path("binding").asText("-")).containsExactly(
                "1 sgw/10.0.2.2:2123 predictor -", "3 sgw/10.0.2.2:2123 sticky -",
                "5 sgw/10.0.2.3:2123 predictor released", "7 sgw/10.0.2.3:2123 sticky -");
        assertThat(lines).noneSatisfy(n -> assertThat(n.has("violation")).isTrue());
        assertThat(summary().at("/bindings_ended/released").asInt()).isEqualTo(1);
        assertThat(summary().get("stickiness_violations").asInt()).isZero();

        out.getBuffer().setLength(0);
        Path keep = dir.resolve("keep.yaml");
        java.nio.file.Files.writeString(keep, java.nio.file.Files.readString(
                Path.of("src/test/resources/whatif/gtp-inspect.yaml")) + "    gtp: { unstick-on-delete: false }\n");
        assertThat(execute("whatif", "-c", keep.toString(), PCAPS + "crafted/gtpv2-reattach.pcap")).isZero();
        assertThat(lines().get(2).get("real").asText()).isEqualTo("sgw/10.0.2.2:2123");
        assertThat(lines().get(2).get("reason").asText()).isEqualTo("sticky");
        assertThat(summary().has("bindings_ended")).isFalse();
    }

    @Test
    void aSessionsRequestsGoToItsRealWhateverItsState() throws Exception {
        // crafted/gtpv2-resource-cause.pcap: IMSI ...002's session is on 10.0.2.3; taken out of
        // service at frame 5, it still gets the session's Modify and Delete (the live upstream sends a
        // pinned request to its holder whatever its state: the session is nowhere else).
        assertThat(execute("whatif", "-c", "src/test/resources/whatif/gtp-inspect.yaml", "--fail", "10.0.2.3:2123@5",
                PCAPS + "crafted/gtpv2-resource-cause.pcap")).isZero();
        assertThat(lines().subList(2, 4)).extracting(n -> n.get("frame").asInt() + " " + n.get("real").asText() + " "
                + n.get("reason").asText()).containsExactly("5 sgw/10.0.2.3:2123 sticky", "7 sgw/10.0.2.3:2123 sticky");
        // IMSI ...003's Create finds no real: .2 refused frame 1's, .3 is out of service.
        assertThat(lines().get(4).get("reason").asText()).isEqualTo("dropped:no-real-available");
    }

    @Test
    void aRequestSentAgainWithinTheResponseTimeoutIsARetransmission() throws Exception {
        // The capture has no answers: each Access-Request stays pending for the response timeout (2 s).
        Path file = dir.resolve("again.pcap");
        InetAddress nas = InetAddress.getByName("198.51.100.1");
        InetAddress vip = InetAddress.getByName("192.0.2.1");
        byte[] request = accessRequest(7, "user7", "4420000000107");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.timeMicros(1_700_000_000_000_000L).udp(nas, 40000, vip, 1812, request);
            writer.timeMicros(1_700_000_001_000_000L).udp(nas, 40000, vip, 1812, request);
            writer.timeMicros(1_700_000_004_000_000L).udp(nas, 40000, vip, 1812, request);
        }
        assertThat(execute("whatif", "-c", LAB, file.toString())).isZero();
        assertThat(lines().subList(0, 3)).extracting(n -> n.get("real").asText() + " " + n.get("reason").asText())
                .containsExactly("aaa/10.0.0.2:1812 predictor", "aaa/10.0.0.2:1812 retransmitted",
                        "aaa/10.0.0.2:1812 sticky");
    }

    @Test
    void requestsLeftUnansweredFailTheirRealsAsInBandFailureDetectionDoes() throws Exception {
        // numconns 8 numclients 2 (the default): .2 fails once its 8th request's timeout passed,
        // before frame 16; .3 (which took frame 16 too) before frame 17; then no real is left.
        assertThat(execute("whatif", "-c", LAB, unansweredRequests(dir.resolve("unanswered.pcap")).toString())).isZero();
        List<JsonNode> lines = lines();
        assertThat(lines.subList(0, 14)).extracting(n -> n.get("real").asText()).containsOnly(
                "aaa/10.0.0.2:1812", "aaa/10.0.0.3:1812");
        assertThat(lines.get(15).get("real").asText()).isEqualTo("aaa/10.0.0.3:1812");
        assertThat(lines.subList(16, 20)).allSatisfy(n -> assertThat(n.get("reason").asText())
                .isEqualTo("dropped:no-real-available"));
    }

    /** 20 Access-Requests of 20 users from 4 NASes, 3 s apart, none answered. */
    static Path unansweredRequests(Path file) throws Exception {
        InetAddress vip = InetAddress.getByName("192.0.2.1");
        try (PcapWriter writer = PcapWriter.create(file)) {
            for (int i = 0; i < 20; i++) {
                writer.timeMicros(1_700_000_000_000_000L + i * 3_000_000L).udp(
                        InetAddress.getByName("198.51.100." + (1 + i % 4)), 40000, vip, 1812,
                        accessRequest(i, "user" + i, "4420000000" + (100 + i)));
            }
        }
        return file;
    }

    @Test
    void anAccountingOnGoesToEveryRealAndTheFirstAnswers() throws Exception {
        // golden.yaml: radius-acct (accounting-on-off: all-reals, the default) over two reals.
        assertThat(execute("whatif", "-c", "src/test/resources/golden/golden.yaml",
                accountingOn(dir.resolve("on.pcap")).toString())).isZero();
        JsonNode on = lines().get(0);
        assertThat(on.get("vserver").asText()).isEqualTo("radius-acct");
        assertThat(on.get("reason").asText()).isEqualTo("fan-out");
        assertThat(on.get("real").asText()).isEqualTo("aaa-acct/10.0.0.2:1813");
        assertThat(on.get("answer").asText()).isEqualTo("captured");
        assertThat(summary().get("answers_used").asInt()).isEqualTo(1);
    }

    /**
     * A NAS's Accounting-On (RFC 2866 §5.1 Acct-Status-Type 7) to port 1813 with its
     * Accounting-Response, both signed with testing123 (RFC 2866 §3: the Request Authenticator is the
     * MD5 of the packet with 16 zero octets in its place, then the secret; the Response Authenticator
     * of the response with the request's, then the secret).
     */
    static Path accountingOn(Path file) throws Exception {
        InetAddress nas = InetAddress.getByName("198.51.100.9");
        InetAddress server = InetAddress.getByName("192.0.2.1");
        byte[] secret = "testing123".getBytes(StandardCharsets.US_ASCII);
        byte[] request = {4, 42, 0, 26, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 40, 6, 0, 0, 0, 7};
        System.arraycopy(md5(request, secret), 0, request, 4, 16);
        byte[] response = {5, 42, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        System.arraycopy(request, 4, response, 4, 16);
        System.arraycopy(md5(response, secret), 0, response, 4, 16);
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.timeMicros(1_700_000_000_000_000L).udp(nas, 40001, server, 1813, request);
            writer.timeMicros(1_700_000_000_010_000L).udp(server, 1813, nas, 40001, response);
        }
        return file;
    }

    private static byte[] md5(byte[] packet, byte[] secret) throws Exception {
        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        md5.update(packet);
        return md5.digest(secret);
    }

    @Test
    void badInputIsNamedWithoutAStackTrace() throws Exception {
        assertThat(execute("whatif", "-c", LAB, "--fail", "10.9.9.9:1812@3",
                PCAPS + "radius/radius_localhost.pcap")).isEqualTo(2);
        assertThat(err.toString()).contains("no such real").doesNotContain("Exception");
        err.getBuffer().setLength(0);
        out.getBuffer().setLength(0);
        assertThat(execute("whatif", "-c", LAB, dir.resolve("missing.pcap").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing.pcap").doesNotContain("Exception");
    }

    @Test
    void fragmentedRequestsAreReassembledAndATruncatedFileIsNamed() throws Exception {
        Path file = dir.resolve("fragments.pcap");
        try (PcapWriter writer = PcapWriter.create(file)) {
            writer.udp(InetAddress.getByName("198.51.100.1"), 40000, InetAddress.getByName("192.0.2.1"), 1812,
                    accessRequest(1, "user1", "4420000000101"));
            writer.udpFragmented((java.net.Inet4Address) InetAddress.getByName("198.51.100.2"), 40000,
                    (java.net.Inet4Address) InetAddress.getByName("192.0.2.1"), 1812,
                    accessRequest(2, "user2-with-a-long-name-to-need-fragments", "4420000000102"), 16);
        }
        assertThat(execute("whatif", "-c", LAB, file.toString())).isZero();
        assertThat(summary().get("requests").asInt()).isEqualTo(2);
        assertThat(lines()).noneSatisfy(n -> assertThat(n.has("error")).isTrue());

        byte[] whole = java.nio.file.Files.readAllBytes(file);
        Path cut = dir.resolve("cut.pcap");
        java.nio.file.Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 10));
        out.getBuffer().setLength(0);
        assertThat(execute("whatif", "-c", LAB, cut.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("cut.pcap").doesNotContain("Exception");
        assertThat(summary().get("requests").asInt()).isEqualTo(1); // what came before the cut
    }

    /**
     * {@code subscribers} NASes' Access-Requests (User-Name and Calling-Station-Id), {@code rounds}
     * rounds of one request per subscriber each, one frame per request, 1 ms apart.
     */
    private Path subscribers(int subscribers, int rounds) throws Exception {
        Path file = dir.resolve("subscribers.pcap");
        InetAddress vip = InetAddress.getByName("192.0.2.1");
        try (PcapWriter writer = PcapWriter.create(file)) {
            for (int round = 0; round < rounds; round++) {
                for (int s = 0; s < subscribers; s++) {
                    InetAddress nas = InetAddress.getByName("198.51.100." + (1 + s % 4));
                    writer.udp(nas, 40000 + s, vip, 1812,
                            accessRequest(round * subscribers + s, "user" + s, "4420000000" + (100 + s)));
                }
            }
        }
        return file;
    }

    static byte[] accessRequest(int id, String userName, String callingStationId) {
        ByteArrayOutputStream attributes = new ByteArrayOutputStream();
        attribute(attributes, 1, userName);
        attribute(attributes, 31, callingStationId);
        int length = 20 + attributes.size();
        ByteArrayOutputStream packet = new ByteArrayOutputStream();
        packet.write(1);
        packet.write(id & 0xFF);
        packet.write(length >> 8);
        packet.write(length & 0xFF);
        for (int i = 0; i < 16; i++) {
            packet.write((id * 31 + i) & 0xFF);
        }
        packet.writeBytes(attributes.toByteArray());
        return packet.toByteArray();
    }

    private static void attribute(ByteArrayOutputStream out, int type, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.write(type);
        out.write(bytes.length + 2);
        out.writeBytes(bytes);
    }
}
