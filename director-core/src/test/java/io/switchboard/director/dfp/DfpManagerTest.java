package io.switchboard.director.dfp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.testing.TestFarms;
import io.vertx.core.Vertx;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The DFP manager against {@link DraftDfpPeer} as agent, over 127.0.0.x. */
class DfpManagerTest {

    private static final String AGENT_IP = "127.0.0.20";
    private static final Duration RETRY = Duration.ofMillis(100);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private Vertx vertx;
    private Farms farms;
    private RealServer first;
    private RealServer second;
    private DraftDfpPeer agent;
    private DfpManager manager;

    @BeforeEach
    void setUp() {
        vertx = Vertx.vertx();
        farms = TestFarms.farms(TestFarms.farm("ggsns", PredictorKind.ROUNDROBIN, TestFarms.FAIL_AT_ONCE,
                TestFarms.real("127.0.0.21", 8), TestFarms.real("127.0.0.22", 8)));
        first = farms.real("ggsns", TestFarms.id("127.0.0.21"));
        second = farms.real("ggsns", TestFarms.id("127.0.0.22"));
    }

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

    private DfpConfig config(Optional<String> password, Duration timeout, int retryCount, int port,
            Map<String, Integer> bindIds) {
        return new DfpConfig(password, List.of(new DfpConfig.Agent(TestFarms.ip(AGENT_IP), port, timeout, retryCount,
                RETRY)), bindIds, Optional.empty(), List.of());
    }

    private void startManager(DfpConfig config) {
        manager = new DfpManager(vertx, config, farms, registry).start();
    }

    private double count(String name, String result) {
        Counter c = registry.find(name).tag("result", result).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void agentWeightsOverrideStaticOnesAndGoBackWhenTheAgentIsLost() throws Exception {
        agent = DraftDfpPeer.agent(AGENT_IP, null);
        startManager(config(Optional.empty(), Duration.ZERO, 0, agent.port(), Map.of()));

        // §7.2: the manager first tells the agent the keep-alive time (0: never time out).
        DraftDfpPeer.Read parameters = agent.next(5);
        assertThat(parameters.version()).isEqualTo(1);
        assertThat(parameters.type()).isEqualTo(DraftDfpPeer.DFP_PARAMETERS);
        assertThat(parameters.value(DraftDfpPeer.KEEP_ALIVE)).containsExactly(0, 0, 0, 0);

        agent.sendPreferences(0, 0, new DraftDfpPeer.Host("127.0.0.21", 0, 20),
                new DraftDfpPeer.Host("127.0.0.22", 0, 0));
        await().atMost(Duration.ofSeconds(5)).until(() -> first.weight() == 20 && second.weight() == 0);
        assertThat(second.state()).isEqualTo(RealState.DFP_THROTTLED);
        assertThat(first.state()).isEqualTo(RealState.OPERATIONAL);

        agent.hangUp();
        agent.awaitClosed(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> first.weight() == 8 && second.weight() == 8);
        assertThat(second.state()).isEqualTo(RealState.OPERATIONAL);
        assertThat(count(DfpMeters.CONNECTIONS, "lost")).isEqualTo(1);

        // It connects again (retry-count 0: for ever) and tells the agent again.
        assertThat(agent.next(5).type()).isEqualTo(DraftDfpPeer.DFP_PARAMETERS);
        await().atMost(Duration.ofSeconds(5)).until(() -> manager.state(AGENT_IP + ":" + agent.port())
                == DfpManager.AgentState.OPEN);
        assertThat(count(DfpMeters.CONNECTIONS, "open")).isEqualTo(2);
    }

    @Test
    void aPortOfTheLoadTlvOtherThanTheRealsOrAnotherBindIdLeavesTheRealAlone() throws Exception {
        agent = DraftDfpPeer.agent(AGENT_IP, null);
        startManager(config(Optional.empty(), Duration.ZERO, 0, agent.port(), Map.of("ggsns", 7)));
        agent.next(5);
        agent.sendPreferences(3386, 17, new DraftDfpPeer.Host("127.0.0.21", 7, 30));
        agent.sendPreferences(2123, 17, new DraftDfpPeer.Host("127.0.0.22", 0, 40),
                new DraftDfpPeer.Host("127.0.0.22", 7, 50));
        await().atMost(Duration.ofSeconds(5)).until(() -> second.weight() == 50);
        assertThat(first.weight()).isEqualTo(8);
        assertThat(count(DfpMeters.WEIGHTS, "no-real")).isEqualTo(2);
        assertThat(count(DfpMeters.WEIGHTS, "applied")).isEqualTo(1);
    }

    @Test
    void aRealsOwnBindIdOverridesItsFarms() throws Exception {
        // One physical server, two bind IDs (IOS SLB "Bind ID"): 127.0.0.22 answers to bind ID 9
        // (its bind-id key), 127.0.0.21 to the farm's 7.
        farms = TestFarms.farms(TestFarms.farm("ggsns", PredictorKind.ROUNDROBIN, TestFarms.FAIL_AT_ONCE,
                TestFarms.real("127.0.0.21", 8), TestFarms.real("127.0.0.22", 8).with(DfpBindId.KEY, 9)));
        first = farms.real("ggsns", TestFarms.id("127.0.0.21"));
        second = farms.real("ggsns", TestFarms.id("127.0.0.22"));
        agent = DraftDfpPeer.agent(AGENT_IP, null);
        startManager(config(Optional.empty(), Duration.ZERO, 0, agent.port(), Map.of("ggsns", 7)));
        agent.next(5);
        agent.sendPreferences(0, 0, new DraftDfpPeer.Host("127.0.0.22", 7, 40),
                new DraftDfpPeer.Host("127.0.0.22", 9, 12), new DraftDfpPeer.Host("127.0.0.21", 9, 30),
                new DraftDfpPeer.Host("127.0.0.21", 7, 5));
        await().atMost(Duration.ofSeconds(5)).until(() -> second.weight() == 12 && first.weight() == 5);
        assertThat(count(DfpMeters.WEIGHTS, "no-real")).isEqualTo(2);
        assertThat(count(DfpMeters.WEIGHTS, "applied")).isEqualTo(2);
    }

    @Test
    void withAPasswordOnlyMessagesSignedWithItCount() throws Exception {
        agent = DraftDfpPeer.agent(AGENT_IP, "s3cret");
        startManager(config(Optional.of("s3cret"), Duration.ZERO, 0, agent.port(), Map.of()));
        DraftDfpPeer.Read parameters = agent.next(5);
        assertThat(parameters.tlvHeaders().get(0)).containsExactly(DraftDfpPeer.SECURITY, 28);
        assertThat(parameters.md5Verified()).isTrue();

        agent.sendPreferences(0, 0, new DraftDfpPeer.Host("127.0.0.21", 0, 3));
        await().atMost(Duration.ofSeconds(5)).until(() -> first.weight() == 3);
        manager.close();

        agent.hangUp();
        agent.close();
        agent = DraftDfpPeer.agent(AGENT_IP, "wrong");
        manager = new DfpManager(vertx, config(Optional.of("s3cret"), Duration.ZERO, 0, agent.port(), Map.of()),
                farms, registry).start();
        assertThat(agent.next(5).md5Verified()).isFalse();
        agent.sendPreferences(0, 0, new DraftDfpPeer.Host("127.0.0.21", 0, 9));
        await().atMost(Duration.ofSeconds(5)).until(() -> count(DfpMeters.MESSAGES, "security") == 1);
        assertThat(first.weight()).isEqualTo(8); // back to static when the first manager closed, and kept
    }

    @Test
    void anAgentSilentForItsTimeoutIsDisconnected() throws Exception {
        agent = DraftDfpPeer.agent(AGENT_IP, null);
        startManager(config(Optional.empty(), Duration.ofSeconds(1), 0, agent.port(), Map.of()));
        assertThat(agent.next(5).value(DraftDfpPeer.KEEP_ALIVE)).containsExactly(0, 0, 0, 1);
        agent.awaitClosed(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> count(DfpMeters.CONNECTIONS, "expired") == 1);
    }

    @Test
    void afterRetryCountFailedAttemptsTheManagerGivesUp() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, TestFarms.ip(AGENT_IP))) {
            closedPort = s.getLocalPort();
        }
        startManager(config(Optional.empty(), Duration.ZERO, 2, closedPort, Map.of()));
        await().atMost(Duration.ofSeconds(5)).until(() -> manager.state(AGENT_IP + ":" + closedPort)
                == DfpManager.AgentState.FAILED);
        assertThat(count(DfpMeters.CONNECTIONS, "failed")).isEqualTo(3);
        assertThat(count(DfpMeters.CONNECTIONS, "gave-up")).isEqualTo(1);
    }
}
