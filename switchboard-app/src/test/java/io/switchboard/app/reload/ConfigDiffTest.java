package io.switchboard.app.reload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.app.Services;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.reload.ConfigChange.Kind;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The difference of two configuration files, and what of it a running director takes in place. */
class ConfigDiffTest {

    private final Services services = Services.discover();
    private final ConfigLoader loader = new ConfigLoader(services.available());

    private SwitchboardConfig load(String name) throws Exception {
        return loader.load(Path.of(ConfigDiffTest.class.getResource("/reload/" + name).toURI()));
    }

    private ConfigDiff diff(String next) throws Exception {
        return ConfigDiff.between(load("running.yaml"), load(next));
    }

    @Test
    void theSameConfigurationIsNoChange() throws Exception {
        assertThat(diff("running.yaml").isEmpty()).isTrue();
    }

    @Test
    void weightsLimitsAndServiceStatesApplyInPlace() throws Exception {
        ConfigDiff diff = diff("in-place.yaml");

        assertThat(diff.changes()).containsExactly(
                new ConfigChange("farms.ggsn.reals[10.0.0.2:2123].inservice", Kind.CHANGED, true, false),
                new ConfigChange("farms.ggsn.reals[10.0.0.3:2123].maxconns", Kind.CHANGED, 100, null),
                new ConfigChange("farms.ggsn.reals[10.0.0.3:2123].weight", Kind.CHANGED, 8, 4),
                new ConfigChange("farms.ggsn.reals[10.0.0.4:2123].maxconns", Kind.CHANGED, null, 50),
                new ConfigChange("virtual-servers.gtp-c.inservice", Kind.CHANGED, true, false));
        assertThat(diff.needsRestart()).isEmpty();
    }

    @Test
    void farmsRealsPredictorsAndVirtualServersApplyInPlaceWhileTheAdminListenerNeedsARestart() throws Exception {
        ConfigDiff diff = diff("restart.yaml");

        assertThat(diff.changes()).containsExactly(
                new ConfigChange("admin.listen", Kind.CHANGED, "127.0.0.1:8080", "127.0.0.1:9999"),
                new ConfigChange("farms.ggsn.predictor", Kind.CHANGED, "roundrobin", "leastconns"),
                new ConfigChange("farms.ggsn.reals[10.0.0.3:2123].weight", Kind.CHANGED, 8, 2),
                new ConfigChange("farms.ggsn.reals[10.0.0.4:2123]", Kind.REMOVED, "10.0.0.4:2123", null),
                new ConfigChange("farms.ggsn.reals[10.0.0.5:2123]", Kind.ADDED, null, "10.0.0.5:2123"),
                new ConfigChange("farms.pgw", Kind.ADDED, null, "roundrobin, 1 real"),
                new ConfigChange("farms.spare", Kind.REMOVED, "roundrobin, 1 real", null),
                new ConfigChange("virtual-servers.gtp-c.listen", Kind.CHANGED, "127.0.0.1:2123", "127.0.0.1:2124"),
                new ConfigChange("virtual-servers.gtp-c.sticky.idle", Kind.CHANGED, "10m", "1h"));
        assertThat(diff.needsRestart()).containsExactly("admin.listen");
        assertThat(diff.changes().get(2)).hasToString("changed farms.ggsn.reals[10.0.0.3:2123].weight: 8 -> 2");
    }

    @Test
    void rateMaxclientsInbandAndPurgeApplyInPlace() throws Exception {
        ConfigDiff diff = diff("limits.yaml");
        assertThat(diff.changes()).containsExactly(
                new ConfigChange("farms.ggsn.failure.inband", Kind.CHANGED, true, false),
                new ConfigChange("farms.ggsn.failure.purge", Kind.CHANGED, false, true),
                new ConfigChange("farms.ggsn.reals[10.0.0.2:2123].rate", Kind.CHANGED, null, 10),
                new ConfigChange("farms.ggsn.reals[10.0.0.3:2123].maxclients", Kind.CHANGED, null, 1));
        assertThat(diff.needsRestart()).isEmpty();

        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        RealServer three = director.farms().real("ggsn", "10.0.0.3:2123");
        diff.apply(director);
        assertThat(director.farms().real("ggsn", "10.0.0.3:2123")).isSameAs(three);
        assertThat(three.limits().countsClients()).isTrue();
        assertThat(three.purgesOnFailure()).isTrue();
    }

    @Test
    void theSameRealsInAnotherOrderAreAChangeOfTheRoundRobin() throws Exception {
        ConfigDiff diff = diff("reordered.yaml");

        assertThat(diff.changes()).containsExactly(new ConfigChange("farms.ggsn.reals", Kind.CHANGED,
                "10.0.0.2:2123, 10.0.0.3:2123, 10.0.0.4:2123", "10.0.0.3:2123, 10.0.0.2:2123, 10.0.0.4:2123"));
        assertThat(diff.needsRestart()).isEmpty();
    }

    @Test
    void farmsAndRealsAreAddedFirstAndRemovedLastByTheirOnRemove() throws Exception {
        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        RealServer two = director.farms().real("ggsn", "10.0.0.2:2123");
        RealServer four = director.farms().real("ggsn", "10.0.0.4:2123");
        RealServer spare = director.farms().real("spare", "10.0.1.2:2123");
        two.requestForwarded(); // in flight: stays counted on the same real

        ConfigDiff diff = diff("farms.yaml");
        assertThat(diff.needsRestart()).isEmpty();
        diff.apply(director);

        assertThat(director.farms().farm("ggsn").predictorKind()).isEqualTo(PredictorKind.LEASTCONNS);
        assertThat(director.farms().real("ggsn", "10.0.0.2:2123")).isSameAs(two);
        assertThat(two.connections()).isEqualTo(1);
        RealServer five = director.farms().real("ggsn", "10.0.0.5:2123");
        assertThat(five.slot()).as("after every slot handed out before").isEqualTo(4);
        assertThat(director.farms().farm("pgw").reals()).hasSize(1);
        // 10.0.0.4 and the spare farm's real drain (on-remove's default): still there, taking nothing new.
        assertThat(director.farms().real("ggsn", "10.0.0.4:2123")).isSameAs(four);
        assertThat(four.state()).isEqualTo(RealState.DRAINING);
        assertThat(spare.state()).isEqualTo(RealState.DRAINING);
        assertThat(director.farms().farm("ggsn").reals()).extracting(RealServer::id)
                .containsExactly("10.0.0.3:2123", "10.0.0.2:2123", "10.0.0.5:2123", "10.0.0.4:2123");

        director.housekeep(); // nothing is bound to them: they leave, and the spare farm with its last real
        assertThat(director.farms().real("ggsn", "10.0.0.4:2123")).isNull();
        assertThat(director.farms().farm("spare")).isNull();
    }

    @Test
    void aFarmThatADispatchedFarmBalancesOverNeedsARestartToChange() throws Exception {
        SwitchboardConfig running = load("running.yaml");
        SwitchboardConfig next = load("farms.yaml");
        io.switchboard.director.config.DispatchedConfig.VpnFarm vpn = new io.switchboard.director.config.DispatchedConfig.VpnFarm(
                "vpn", "ggsn", "eth0", java.net.InetAddress.getByName("192.0.2.1"), java.util.Set.of(50), "ike", java.util.List.of());
        io.switchboard.director.config.DispatchedConfig dispatched = new io.switchboard.director.config.DispatchedConfig(
                java.util.Map.of(), java.util.Map.of("vpn", vpn));
        ConfigDiff diff = ConfigDiff.between(withDispatched(running, dispatched), withDispatched(next, dispatched));

        assertThat(diff.needsRestart()).containsExactly("farms.ggsn.predictor", "farms.ggsn.reals",
                "farms.ggsn.reals[10.0.0.4:2123]", "farms.ggsn.reals[10.0.0.5:2123]");
    }

    private static SwitchboardConfig withDispatched(SwitchboardConfig c, io.switchboard.director.config.DispatchedConfig d) {
        return new SwitchboardConfig(c.cluster(), c.admin(), c.farms(), c.virtualServers(), c.probes(), c.routeHealth(),
                c.debugCapture(), d);
    }

    @Test
    void applyingChangesTheRunningRealsAndVirtualServer() throws Exception {
        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        RealServer two = director.farms().real("ggsn", "10.0.0.2:2123");
        RealServer three = director.farms().real("ggsn", "10.0.0.3:2123");
        RealServer four = director.farms().real("ggsn", "10.0.0.4:2123");

        diff("in-place.yaml").apply(director);

        assertThat(two.state()).isEqualTo(RealState.OUTOFSERVICE);
        assertThat(three.weight()).isEqualTo(4);
        assertThat(three.staticWeight()).isEqualTo(4);
        assertThat(three.maxConns()).isEqualTo(Integer.MAX_VALUE);
        assertThat(four.maxConns()).isEqualTo(50);
        assertThat(director.virtualServers().get("gtp-c").inService()).isFalse();
    }

    @Test
    void aDynamicWeightSurvivesANewStaticWeight() throws Exception {
        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        RealServer three = director.farms().real("ggsn", "10.0.0.3:2123");
        three.setWeight(6); // as PUT /api/v1/reals/ggsn/10.0.0.3:2123/weight does

        diff("in-place.yaml").apply(director);

        assertThat(three.weight()).isEqualTo(6);
        assertThat(three.staticWeight()).isEqualTo(4);
    }

    @Test
    void virtualServersAddedRemovedAndChangedApplyInPlace() throws Exception {
        ConfigDiff diff = diff("virtual-servers.yaml");

        assertThat(diff.changes()).containsExactly(
                new ConfigChange("virtual-servers.gtp-c.farm", Kind.CHANGED, "ggsn", "spare"),
                new ConfigChange("virtual-servers.gtp-c.response-timeout", Kind.CHANGED, "2s", "5s"),
                new ConfigChange("virtual-servers.web", Kind.ADDED, null, "tcp on 127.0.0.1:8080, farm ggsn"));
        assertThat(diff.needsRestart()).isEmpty();
        assertThat(ConfigDiff.between(load("virtual-servers.yaml"), load("running.yaml")).needsRestart()).isEmpty();
    }

    @Test
    void aChangedVirtualServerIsReplacedOnceAsAWholeAndARemovedOneGoes() throws Exception {
        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);
        var before = director.virtualServers().get("gtp-c");

        diff("virtual-servers.yaml").apply(director);

        var after = director.virtualServers().get("gtp-c");
        assertThat(after).isNotSameAs(before);
        assertThat(after.selector().farm().name()).isEqualTo("spare");
        assertThat(after.config().responseTimeout()).hasSeconds(5);
        assertThat(director.virtualServers()).containsKeys("gtp-c", "web");

        ConfigDiff.between(load("virtual-servers.yaml"), load("running.yaml")).apply(director);

        assertThat(director.virtualServers()).containsOnlyKeys("gtp-c");
        assertThat(director.virtualServers().get("gtp-c").selector().farm().name()).isEqualTo("ggsn");
    }

    @Test
    void aTcpVirtualServerChangedNeedsARestart() throws Exception {
        ConfigDiff diff = ConfigDiff.between(load("virtual-servers.yaml"), load("tcp-changed.yaml"));

        assertThat(diff.changes()).containsExactly(
                new ConfigChange("virtual-servers.web.listen", Kind.CHANGED, "127.0.0.1:8080", "127.0.0.1:8081"));
        assertThat(diff.needsRestart()).containsExactly("virtual-servers.web.listen");
    }

    @Test
    void aDiffThatNeedsARestartIsNeverApplied() throws Exception {
        Director director = new Director(load("running.yaml"), services::forVirtualServer, new SimpleMeterRegistry(),
                Ticker.SYSTEM);

        assertThatThrownBy(() -> diff("restart.yaml").apply(director)).isInstanceOf(IllegalStateException.class);
        assertThat(director.farms().real("ggsn", "10.0.0.3:2123").weight()).isEqualTo(8);
    }
}
