package io.switchboard.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Whatever arrives on a signaling port, inspection describes it: fields, or an error; never an exception. */
class SignalingInspectorTest {

    private static final int[] PORTS = {3386, 2123, 1812, 1813, 3799, 434, 2231};
    // one well-formed message per protocol (GTPv2 Create Session Request with IMSI, RADIUS Access-Request
    // with User-Name, MIP Registration Request, R6 MS_PreAttachment_Req), from the sample captures
    private static final byte[][] VALID = {
        hex("4820001c" + "00000000" + "00000000" + "01000800" + "00214365870921f3" + "47000400" + "03696e74"),
        hex("01070019" + "00000000000000000000000000000000" + "0105616c69"),
        hex("010201f40a0000010a0000fe0a0000020000000000000001"),
        hex("010009210014" + "0a1b2c3d4e5f" + "00000000" + "0101" + "0000")};

    private final SignalingInspector inspector = new SignalingInspector();

    private Map<String, Object> inspect(int port, byte[] payload) throws Exception {
        Map<String, Object> d = inspector.inspect(new UdpDatagram(1, InetAddress.getByName("192.0.2.1"), 40000,
                InetAddress.getByName("192.0.2.2"), port, payload, 1));
        assertThat(String.valueOf(d.get("error"))).as("only DecodeExceptions").doesNotStartWith(
                SignalingInspector.INTERNAL_ERROR);
        return d;
    }


    @Test
    void randomBytesOnEveryPortGiveFieldsOrAnError() throws Exception {
        Random random = new Random(20261130);
        for (int i = 0; i < 20_000; i++) {
            byte[] payload = new byte[random.nextInt(64)];
            random.nextBytes(payload);
            int port = PORTS[i % PORTS.length];
            Map<String, Object> d = inspect(port, payload);
            assertThat(d).as("port %d, %s", port, Arrays.toString(payload)).containsKeys("frame", "src", "dst", "proto");
        }
    }

    @Test
    void everyTruncationAndMutationOfAValidMessageGivesFieldsOrAnError() throws Exception {
        Random random = new Random(7);
        int[] ports = {2123, 1812, 434, 2231};
        for (int v = 0; v < VALID.length; v++) {
            assertThat(inspect(ports[v], VALID[v])).doesNotContainKey("error");
            for (int cut = 0; cut < VALID[v].length; cut++) {
                Map<String, Object> d = inspect(ports[v], Arrays.copyOf(VALID[v], cut));
                assertThat(d).as("cut at %d", cut).containsKey("proto");
            }
            for (int i = 0; i < 2_000; i++) {
                byte[] mutated = VALID[v].clone();
                mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
                assertThat(inspect(ports[v], mutated)).containsKey("proto");
            }
        }
    }

    @Test
    void describesTheKeyFields() throws Exception {
        Map<String, Object> gtp = inspect(2123, VALID[0]);
        assertThat(gtp).containsEntry("proto", "gtpv2").containsEntry("type", 32).containsEntry("teid", 0L)
                .containsEntry("imsi", "001234567890123");
        assertThat(inspect(1812, VALID[1])).containsEntry("code", 1).containsEntry("id", 7)
                .containsEntry("user_name", "ali");
        assertThat(inspect(434, VALID[2])).containsEntry("home_address", "10.0.0.1")
                .containsEntry("home_agent", "10.0.0.254").containsEntry("identification", 1L);
        assertThat(inspect(2231, VALID[3])).containsEntry("function_type", 9).containsEntry("op_id", 1)
                .containsEntry("msid", "0a:1b:2c:3d:4e:5f").containsEntry("transaction_id", 257)
                .containsEntry("pre_attachment", "REQUEST");
    }

    private static byte[] hex(String s) {
        byte[] out = new byte[s.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }
}
