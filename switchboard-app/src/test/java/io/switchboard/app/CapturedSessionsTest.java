package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.testing.Tshark;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A session whose create is in a sample capture never shows {@code gtp-unknown-session} later in that
 * capture (issue 16): every later request of the session, as tshark reads the capture, is directed
 * by {@code switchboard whatif} through {@code golden.yaml}'s {@code gtp-inspect} virtual server.
 *
 * <p>The sessions come from tshark, not from the director: an accepted create response (GTPv1 Create
 * PDP Context Response, cause 128..191, TS 29.060 §7.7.1; GTPv2 Create Session Response, cause
 * 16..63, TS 29.274 §8.4) names the answering node's control-plane TEID — v1 its TEID Control Plane;
 * v2 the F-TEID whose interface type (Table 8.22-1) is the answering node's GTP-C one: S11/S4 SGW
 * (11), or the PGW's on S5/S8, S2b, S2a (7, 32, 36). A later request with that header TEID is a
 * request of the session.
 */
class CapturedSessionsTest {

    private static final Set<String> ANSWERING_GTP_C = Set.of("11", "7", "32", "36");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A request of a session whose create the capture holds. */
    private record SessionRequest(int frame, String teid, int createdAt) {
    }

    @Test
    void noRequestOfASessionCreatedInTheCaptureIsDroppedAsAnUnknownSession() throws Exception {
        int checked = 0;
        Map<String, Integer> perCapture = new HashMap<>();
        for (Path capture : SampleCaptures.all()) {
            String name = SampleCaptures.PCAPS.relativize(capture).toString();
            if (!name.startsWith("gtpv1") && !name.startsWith("gtpv2") && !name.startsWith("crafted")
                    && !name.startsWith("osmo-ggsn")) {
                continue;
            }
            List<SessionRequest> requests = sessionRequests(capture);
            if (requests.isEmpty()) {
                continue;
            }
            Map<Integer, String> reasons = whatIfReasons(capture);
            for (SessionRequest r : requests) {
                assertThat(reasons.get(r.frame()))
                        .as("%s frame %d, TEID %s of the session created at frame %d", name, r.frame(), r.teid(), r.createdAt())
                        .isNotNull()
                        .isNotEqualTo("dropped:gtp-unknown-session");
            }
            perCapture.put(name, requests.size());
            checked += requests.size();
        }
        // Not vacuous: the S5/S8 captures' Deletes (nDPI, magma) and the S11 ones are among them.
        assertThat(perCapture).containsKeys("gtpv2/gtp_c.pcap", "gtpv2/inbound_roaming_01_210505_130828-1.pcapng",
                "gtpv2/inbound_roaming_05_210504_215514-1.pcapng", "gtpv2/nsa_connection.pcap",
                "crafted/gtpv2-resource-cause.pcap", "osmo-ggsn/sgsnemu-v1-v0.pcap");
        assertThat(checked).isGreaterThanOrEqualTo(10);
    }

    /** Requests, by tshark, sent to a TEID an earlier accepted create response named. */
    private static List<SessionRequest> sessionRequests(Path capture) throws Exception {
        List<SessionRequest> out = new ArrayList<>();
        Map<String, Integer> sessions = new HashMap<>();
        for (List<String> row : Tshark.fields(capture, List.of("-Y", "gtp || gtpv2"), "frame.number", "gtp.message",
                "gtp.teid", "gtp.cause", "gtp.teid_cp", "gtpv2.message_type", "gtpv2.teid", "gtpv2.cause",
                "gtpv2.f_teid_interface_type", "gtpv2.f_teid_gre_key")) {
            String[] f = row.toArray(new String[0]);
            int frame = Integer.parseInt(f[0]);
            if (!f[1].isEmpty()) { // GTPv1 (v0 sessions are known by TID, not TEID: not here)
                int type = Integer.decode(f[1]);
                if (type == 0x11 && accepted(f[3], 128, 191) && !f[4].isEmpty()) {
                    sessions.put(hex(f[4]), frame);
                } else if (isV1Request(type) && !f[2].isEmpty() && sessions.containsKey(hex(f[2]))) {
                    out.add(new SessionRequest(frame, hex(f[2]), sessions.get(hex(f[2]))));
                }
            } else if (!f[5].isEmpty()) {
                int type = Integer.parseInt(first(f[5]));
                if (type == 33 && accepted(f[7], 16, 63)) {
                    String[] interfaces = f[8].split(",");
                    String[] teids = f[9].split(",");
                    for (int i = 0; i < interfaces.length && i < teids.length; i++) {
                        if (ANSWERING_GTP_C.contains(interfaces[i])) {
                            sessions.put(hex(teids[i]), frame);
                            break; // the first: SGW's S11 F-TEID before the PGW's (instance 1) on S11
                        }
                    }
                } else if (isV2Request(type) && !f[6].isEmpty() && sessions.containsKey(hex(first(f[6])))) {
                    out.add(new SessionRequest(frame, hex(first(f[6])), sessions.get(hex(first(f[6])))));
                }
            }
        }
        return out;
    }

    /** TS 29.060 §7.1: Update (18) and Delete (20) PDP Context Request, from the SGSN. */
    private static boolean isV1Request(int type) {
        return type == 18 || type == 20;
    }

    /** TS 29.274 Table 6.1-1: Modify Bearer (34), Delete Session (36) Request, Commands (64, 66, 68), Release Access Bearers (170). */
    private static boolean isV2Request(int type) {
        return type == 34 || type == 36 || type == 64 || type == 66 || type == 68 || type == 170;
    }

    private static boolean accepted(String cause, int from, int to) {
        if (cause.isEmpty()) {
            return false;
        }
        int c = Integer.parseInt(first(cause));
        return c >= from && c <= to;
    }

    private static String first(String list) {
        int comma = list.indexOf(',');
        return comma < 0 ? list : list.substring(0, comma);
    }

    private static String hex(String value) {
        return Long.toHexString(Long.decode(value));
    }

    /** The reason {@code switchboard whatif} gives each request frame of the capture. */
    private static Map<Integer, String> whatIfReasons(Path capture) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new SwitchboardCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute("whatif", "-c", SampleCaptures.CONFIG.toString(), capture.toString());
        assertThat(status).as("whatif exit status; stderr: %s", err).isZero();
        Map<Integer, String> reasons = new HashMap<>();
        Set<Integer> seen = new HashSet<>();
        for (String line : out.toString().split("\n")) {
            JsonNode node = JSON.readTree(line);
            if (node.has("frame") && node.has("reason") && seen.add(node.get("frame").asInt())) {
                reasons.put(node.get("frame").asInt(), node.get("reason").asText());
            }
        }
        return reasons;
    }
}
