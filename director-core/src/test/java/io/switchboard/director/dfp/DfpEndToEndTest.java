package io.switchboard.director.dfp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.testing.RunningDirector;
import io.switchboard.director.testing.TestFarms;
import io.switchboard.director.testing.ToyPlugin;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two directors over 127.0.0.x: a site reports its virtual server's capacity as DFP agent, and a
 * front director's manager weighs the real that stands for the site with it.
 */
class DfpEndToEndTest {

    private static final String SITE_IP = "127.0.0.31";

    private RunningDirector site;
    private DfpAgent agent;
    private Vertx frontVertx;
    private DfpManager manager;
    private RealServer siteReal;

    @BeforeEach
    void start() throws Exception {
        FarmConfig siteFarm = RunningDirector.loopbackFarm("ggsns", new int[] {20001, 20002}, new int[] {5, 7});
        VirtualServerConfig vs = new VirtualServerConfig("gtp", new Endpoint(TestFarms.ip(SITE_IP), 0), "toy",
                "ggsns", Optional.empty(), Duration.ofSeconds(30), Duration.ofMinutes(1), 2048, true);
        site = RunningDirector.start(vs, siteFarm, ToyPlugin.service("toy", ToyPlugin::new), new SimpleMeterRegistry());
        InetSocketAddress vip = site.vip("gtp");
        DfpConfig siteDfp = new DfpConfig(Optional.of("k"), List.of(), Map.of(),
                Optional.of(new DfpConfig.AgentListener(new Endpoint(TestFarms.ip(SITE_IP), 0), Duration.ofMillis(100))),
                List.of());
        frontVertx = Vertx.vertx();
        agent = new DfpAgent(frontVertx, siteDfp, new DirectorCapacity(site.director()), new SimpleMeterRegistry());
        int agentPort = agent.start().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS).port();

        Farms front = TestFarms.farms(new FarmConfig("sites", PredictorKind.ROUNDROBIN, TestFarms.FAIL_AT_ONCE,
                List.of(new RealConfig(vip.getAddress(), vip.getPort(), 1, OptionalInt.empty(), true)), Optional.empty()));
        siteReal = front.real("sites", SITE_IP + ":" + vip.getPort());
        DfpConfig frontDfp = new DfpConfig(Optional.of("k"), List.of(new DfpConfig.Agent(TestFarms.ip(SITE_IP),
                agentPort, Duration.ofSeconds(5), 0, Duration.ofMillis(100))), Map.of(), Optional.empty(), List.of());
        manager = new DfpManager(frontVertx, frontDfp, front, new SimpleMeterRegistry()).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (manager != null) {
            manager.close();
        }
        if (agent != null) {
            agent.close();
        }
        frontVertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        site.close();
    }

    @Test
    void theFrontFollowsTheSitesCapacityAndFallsBackToItsStaticWeight() {
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 12);
        DirectorCapacity capacity = new DirectorCapacity(site.director());
        assertThat(capacity.kalApLoads()).containsExactly(Map.entry(TestFarms.ip(SITE_IP), 0));
        site.director().farms().real("ggsns", "127.0.0.1:20001").failInBand(System.nanoTime(), "test");
        assertThat(capacity.kalApLoads()).containsExactly(Map.entry(TestFarms.ip(SITE_IP), 128)); // 1 of 2 active
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 7);
        site.director().farms().real("ggsns", "127.0.0.1:20001").putInService();
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 12);

        site.director().farms().real("ggsns", "127.0.0.1:20002").takeOutOfService();
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 5);

        site.director().farms().real("ggsns", "127.0.0.1:20001").takeOutOfService();
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 0
                && siteReal.state() == io.switchboard.director.real.RealState.DFP_THROTTLED);

        agent.close();
        await().atMost(Duration.ofSeconds(5)).until(() -> siteReal.weight() == 1);
    }
}
