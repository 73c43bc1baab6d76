package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.app.config.ConfigLoader;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A node started from YAML with a {@code dfp} section: its manager takes an agent's weight 0 for a
 * real (DFP_THROTTLED in the admin API), and its agent answers a manager that connects. The agent
 * here is a socket sending the bytes of draft-eck-dfp-01 §4.1 and §5.2 by hand.
 */
class DfpNodeIT {

    private static final String CONFIG = """
            admin: { listen: 127.0.0.1:0 }
            farms:
              ggsn:
                reals: [{ address: 127.0.0.42, port: 2123, weight: 4 }]
            virtual-servers:
              gtp-c: { listen: 127.0.0.41:0, service: udp, farm: ggsn }
            dfp:
              agents: [{ address: 127.0.0.43, port: %d, retry-interval: 100ms }]
              agent: { listen: 127.0.0.41:%d, interval: 1s }
            """;

    private Node node;
    private ServerSocket agent;

    @AfterEach
    void stop() throws Exception {
        if (node != null) {
            node.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    @Test
    void theNodeIsManagerAndAgent() throws Exception {
        agent = new ServerSocket();
        agent.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.43"), 0));
        int agentPort = LoopbackPorts.freeTcpPort();
        String yaml = CONFIG.formatted(agent.getLocalPort(), agentPort);
        Services services = Services.discover();
        node = new Node(new ConfigLoader(services.available()).parse(yaml), yaml, services);
        node.startAndWait();

        try (Socket fromManager = agent.accept()) {
            fromManager.setSoTimeout(5000);
            byte[] parameters = new byte[16];
            new DataInputStream(fromManager.getInputStream()).readFully(parameters);
            // §6.3 DFP Parameters (0x0301, 16 bytes) with a Keep-alive TLV of 0 s.
            assertThat(HexFormat.of().formatHex(parameters)).isEqualTo("0100030100000010" + "0101000800000000");
            OutputStream out = fromManager.getOutputStream();
            // §6.1 Preference Information: Load TLV, any port and protocol, 127.0.0.42 bind ID 0 weight 0.
            out.write(HexFormat.of().parseHex("010001010000001c" + "00020014" + "00000000" + "00010000"
                    + "7f00002a" + "0000" + "0000"));
            out.flush();
            await().atMost(Duration.ofSeconds(5)).until(() -> "DFP_THROTTLED".equals(realState()));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> "OPERATIONAL".equals(realState()));

        try (Socket toAgent = new Socket(InetAddress.getByName("127.0.0.41"), agentPort)) {
            toAgent.setSoTimeout(5000);
            byte[] header = new byte[8];
            new DataInputStream(toAgent.getInputStream()).readFully(header);
            assertThat(HexFormat.of().formatHex(header, 0, 4)).isEqualTo("01000101");
        }
    }

    private String realState() throws Exception {
        JsonNode farm = new ObjectMapper().readTree(new AdminClient(node.adminAddress(), null)
                .call("GET", "/api/v1/farms/ggsn", null, null).body());
        return farm.findValue("state").asText();
    }
}
