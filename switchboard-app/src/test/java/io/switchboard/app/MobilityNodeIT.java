package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.director.EngineDrops;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node started from YAML with the two virtual servers (Home Agent Director and ASN
 * director): the plug-ins are found, their options bound, traffic flows, the MSID binding is looked up
 * through the admin API and the plug-ins' counters are in {@code /metrics}.
 */
class MobilityNodeIT {

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private DatagramSocket homeAgent;
    private DatagramSocket gateway;
    private Thread responder;
    private Node node;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        homeAgent = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        gateway = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
        responder = new Thread(() -> {
            answer(homeAgent, MobilityNodeIT::registrationReply);
        }, "home-agent");
        responder.setDaemon(true);
        responder.start();
        Thread gw = new Thread(() -> answer(gateway, MobilityNodeIT::preAttachmentRsp), "gateway");
        gw.setDaemon(true);
        gw.start();
        String yaml = """
                admin: { listen: 127.0.0.1:0 }
                farms:
                  ha:
                    reals: [ { address: 127.0.0.1, port: %d } ]
                  gateways:
                    reals: [ { address: 127.0.0.1, port: %d } ]
                virtual-servers:
                  home-agents:
                    listen: 127.0.0.1:0
                    service: ipmobile
                    farm: ha
                    ipmobile: { relay-replies: true, rewrite-home-agent: false }
                  asn-gw:
                    listen: 127.0.0.1:0
                    service: asn
                    farm: gateways
                    sticky: { key: msid, idle: 30m }
                    asn: { nwg-release: 1.2.1, relay-responses: true }
                """.formatted(homeAgent.getLocalPort(), gateway.getLocalPort());
        node = Nodes.started(yaml);
        base = URI.create("http://127.0.0.1:" + node.adminAddress().getPort());
    }

    @AfterEach
    void stop() {
        if (node != null) {
            node.close();
        }
        homeAgent.close();
        gateway.close();
    }

    private interface Answer {
        byte[] to(byte[] request);
    }

    private static void answer(DatagramSocket socket, Answer answer) {
        while (!socket.isClosed()) {
            try {
                DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
                socket.receive(in);
                byte[] out = answer.to(Arrays.copyOf(in.getData(), in.getLength()));
                socket.send(new DatagramPacket(out, out.length, in.getSocketAddress()));
            } catch (IOException e) {
                // closed
            }
        }
    }

    /** RRP code 0 with the request's lifetime, home address, home agent and identification. */
    private static byte[] registrationReply(byte[] rrq) {
        ByteBuffer in = ByteBuffer.wrap(rrq);
        return ByteBuffer.allocate(20).put((byte) 3).put((byte) 0).putShort(in.getShort(2)).putInt(in.getInt(4))
                .putInt(in.getInt(8)).putLong(in.getLong(16)).array();
    }

    /** The request with OP-ID Response and message type 2 (MS_PreAttachment_Rsp in v1.2.x). */
    private static byte[] preAttachmentRsp(byte[] req) {
        byte[] rsp = req.clone();
        rsp[3] = (byte) ((2 << 5) | 2);
        return rsp;
    }

    private static byte[] ask(InetSocketAddress to, byte[] request) throws IOException {
        return ask(to, request, 5000);
    }

    private static byte[] ask(InetSocketAddress to, byte[] request, int timeoutMillis) throws IOException {
        try (DatagramSocket client = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            client.setSoTimeout(timeoutMillis);
            client.send(new DatagramPacket(request, request.length, to));
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            try {
                client.receive(in);
            } catch (SocketTimeoutException e) {
                return null;
            }
            assertThat(in.getSocketAddress()).isEqualTo(to);
            return Arrays.copyOf(in.getData(), in.getLength());
        }
    }

    private HttpResponse<String> put(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5))
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aHomeAgentsLoadSetsItsWeightByTheDfpFormula() throws Exception {
        String real = "/api/v1/reals/ha/127.0.0.1:" + homeAgent.getLocalPort() + "/load";
        HttpResponse<String> half = put(real, "{\"bindings\": 117500, \"cpu\": 16, \"memory\": 16}");
        assertThat(half.statusCode()).isEqualTo(200);
        assertThat(json.readTree(half.body()).get("weight").asInt()).isEqualTo(12);
        HttpResponse<String> full = put(real, "{\"bindings\": 1000, \"maxBindings\": 1000, \"cpu\": 16, \"memory\": 16}");
        assertThat(json.readTree(full.body()).get("weight").asInt()).isZero();
        assertThat(json.readTree(full.body()).get("state").asText()).isEqualTo("DFP_THROTTLED");
        // A throttled farm takes no new registrations.
        byte[] rrq = ByteBuffer.allocate(24).put((byte) 1).put((byte) 0).putShort((short) 1800)
                .putInt(0x0a630001).putInt(0x7f00000a).putInt(0xc0000201).putLong(1).array();
        assertThat(ask(node.director().localAddress("home-agents"), rrq, 500)).isNull();
        assertThat(node.director().virtualServers().get("home-agents").metrics()
                .droppedCount(EngineDrops.NO_REAL_AVAILABLE)).isEqualTo(1);
        assertThat(put(real, "{\"bindings\": 1, \"cpu\": 17, \"memory\": 0}").statusCode()).isEqualTo(400);
        assertThat(put(real, "not json").statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(5)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void registrationAndPreAttachmentFlowThroughANodeAndTheMsidBindingIsVisible() throws Exception {
        byte[] rrq = ByteBuffer.allocate(24).put((byte) 1).put((byte) 0).putShort((short) 1800)
                .putInt(0x0a630001).putInt(0x7f00000a).putInt(0xc0000201).putLong(0x1122334455667788L).array();
        byte[] rrp = ask(node.director().localAddress("home-agents"), rrq);
        assertThat(rrp).isNotNull();
        assertThat(rrp[0]).isEqualTo((byte) 3);
        assertThat(ByteBuffer.wrap(rrp).getLong(12)).isEqualTo(0x1122334455667788L);

        byte[] req = java.util.HexFormat.of().parseHex(
                "01000921" + "002c" + "0a1b2c3d4e5f" + "00000000" + "0101" + "0000"
                        + "00670006fff000020102" + "001a000a0019000600e0fc123456");
        byte[] rsp = ask(node.director().localAddress("asn-gw"), req);
        assertThat(rsp).isNotNull();
        assertThat(rsp[3]).isEqualTo((byte) 0x42);

        HttpResponse<String> binding = get("/api/v1/sticky/asn-gw?key=0a:1b:2c:3d:4e:5f");
        assertThat(binding.statusCode()).isEqualTo(200);
        assertThat(json.readTree(binding.body()).get("real").asText()).isEqualTo("127.0.0.1:" + gateway.getLocalPort());

        String metrics = get("/metrics").body();
        assertThat(metrics)
                .contains("switchboard_ipmobile_requests_total{real=\"127.0.0.1:" + homeAgent.getLocalPort()
                        + "\",vserver=\"home-agents\"} 1.0")
                .contains("switchboard_ipmobile_replies_total{code=\"0\",real=\"127.0.0.1:" + homeAgent.getLocalPort()
                        + "\",vserver=\"home-agents\"} 1.0")
                .contains("switchboard_asn_messages_total{direction=\"to-gateway\",real=\"127.0.0.1:"
                        + gateway.getLocalPort() + "\",type=\"MS_PreAttachment_Req\",vserver=\"asn-gw\"} 1.0")
                .contains("switchboard_asn_messages_total{direction=\"from-gateway\",real=\"127.0.0.1:"
                        + gateway.getLocalPort() + "\",type=\"MS_PreAttachment_Rsp\",vserver=\"asn-gw\"} 1.0");
    }
}
