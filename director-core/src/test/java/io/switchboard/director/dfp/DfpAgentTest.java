package io.switchboard.director.dfp;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.testing.TestFarms;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.net.Inet4Address;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** This node as DFP agent, read by {@link DraftDfpPeer} as manager over 127.0.0.x. */
class DfpAgentTest {

    private static final String AGENT_IP = "127.0.0.23";

    private final Vertx vertx = Vertx.vertx();
    private final AtomicInteger capacity = new AtomicInteger(12);
    private DfpAgent agent;
    private DraftDfpPeer manager;

    @AfterEach
    void tearDown() throws Exception {
        if (manager != null) {
            manager.close();
        }
        if (agent != null) {
            agent.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private int start(Optional<String> password, Duration interval) throws Exception {
        DfpConfig config = new DfpConfig(password, List.of(), java.util.Map.of(),
                Optional.of(new DfpConfig.AgentListener(new Endpoint(TestFarms.ip(AGENT_IP), 0), interval)), List.of());
        DfpCapacity loads = () -> List.of(new DfpLoad(2123, 17,
                List.of(new DfpLoad.Host((Inet4Address) TestFarms.ip("127.0.0.24"), 0, capacity.get()))));
        agent = new DfpAgent(vertx, config, loads, new SimpleMeterRegistry());
        return agent.start().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).port();
    }

    @Test
    void reportsEachVirtualServerAtOnceAndWithinTheKeepAliveTheManagerAsksFor() throws Exception {
        manager = DraftDfpPeer.manager(AGENT_IP, start(Optional.empty(), Duration.ofMinutes(5)), null);
        DraftDfpPeer.Read first = manager.next(5);
        assertThat(first.version()).isEqualTo(1);
        assertThat(first.type()).isEqualTo(DraftDfpPeer.PREFERENCE_INFORMATION);
        assertThat(first.hosts()).singleElement().satisfies(h -> assertThat(h)
                .containsExactly("127.0.0.24", 0, 12, 2123, 17));

        // §5.3, §6.3: keep-alive 1 s; the agent must report within it, though its interval is 5 min.
        ByteArrayOutputStream tlv = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(tlv);
        out.writeShort(DraftDfpPeer.KEEP_ALIVE);
        out.writeShort(8);
        out.writeInt(1);
        capacity.set(5);
        manager.send(DraftDfpPeer.DFP_PARAMETERS, tlv.toByteArray());
        DraftDfpPeer.Read next = manager.next(2);
        assertThat(next.hosts()).singleElement().satisfies(h -> assertThat(h[2]).isEqualTo(5));
        assertThat(manager.next(2).type()).isEqualTo(DraftDfpPeer.PREFERENCE_INFORMATION);
    }

    @Test
    void answersABindIdRequestWithTheEndOfAnEmptyTable() throws Exception {
        manager = DraftDfpPeer.manager(AGENT_IP, start(Optional.empty(), Duration.ofMinutes(5)), null);
        manager.next(5);
        manager.send(DraftDfpPeer.BIND_ID_REQUEST, new byte[0]);
        DraftDfpPeer.Read report = manager.next(5);
        assertThat(report.type()).isEqualTo(DraftDfpPeer.BIND_ID_REPORT);
        // §6.5: zero server address, port, protocol and number of entries.
        assertThat(report.value(DraftDfpPeer.BIND_ID_TABLE)).hasSize(12).containsOnly(0);
    }

    @Test
    void signsWhatItSendsWithThePassword() throws Exception {
        manager = DraftDfpPeer.manager(AGENT_IP, start(Optional.of("gss-key"), Duration.ofMinutes(5)), "gss-key");
        DraftDfpPeer.Read first = manager.next(5);
        assertThat(first.md5Verified()).isTrue();
        assertThat(first.tlvHeaders().get(0)[0]).isEqualTo(DraftDfpPeer.SECURITY);
        assertThat(first.hosts()).hasSize(1);
    }
}
