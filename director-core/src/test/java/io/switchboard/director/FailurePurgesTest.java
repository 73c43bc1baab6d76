package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.id;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code failure.purge} (IOS {@code failaction purge}) and {@code maxclients}' counts over the sticky tables. */
class FailurePurgesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final InMemoryStickyTable table = new InMemoryStickyTable("t", Duration.ofHours(1), 1000);

    private static FailureDetection purging(boolean purge) {
        return new FailureDetection(1, 1, Duration.ofMinutes(1), true, purge);
    }

    private RealServer bind(Farms farms, String farm, String address, int... keys) {
        RealServer real = farms.real(farm, id(address));
        for (int k : keys) {
            table.bindIfAbsent(StickyKey.clientAddress(ip("192.0.2." + k), 32), real.binding(), 0);
        }
        return real;
    }

    @Test
    void aFailedRealOfAPurgingFarmLosesItsBindingsAtOnceOthersKeepTheirs() {
        Farms farms = farms(farm("purging", PredictorKind.ROUNDROBIN, purging(true), real("10.0.0.1", 1),
                real("10.0.0.2", 1)), farm("keeping", PredictorKind.ROUNDROBIN, purging(false), real("10.0.0.3", 1)));
        RealServer failing = bind(farms, "purging", "10.0.0.1", 1, 2, 3);
        RealServer other = bind(farms, "purging", "10.0.0.2", 4);
        RealServer kept = bind(farms, "keeping", "10.0.0.3", 5, 6);
        FailurePurges purges = new FailurePurges(farms, new RealRestarts(List.of(), List.of(table), registry), registry);
        assertThat(purges.failed()).isEmpty(); // the first look only learns the states

        failing.requestForwarded();
        failing.requestUnanswered("c", 0);
        kept.requestForwarded();
        kept.requestUnanswered("c", 0);
        List<RealServer> failed = purges.failed();
        assertThat(failed).containsExactly(failing);
        purges.purge(failed);

        assertThat(table.countBoundTo("purging", failing.id(), 0)).isZero();
        assertThat(table.countBoundTo("purging", other.id(), 0)).isEqualTo(1);
        assertThat(table.countBoundTo("keeping", kept.id(), 0)).as("no failaction purge: bindings wait").isEqualTo(2);
        assertThat(registry.get("switchboard.real.failure.purged").tag("real", failing.id()).counter().count())
                .isEqualTo(3);
        assertThat(purges.failed()).as("one purge per failure").isEmpty();
    }

    @Test
    void aRealFailingItsProbesIsPurgedToo() {
        Farms farms = farms(farm("purging", PredictorKind.ROUNDROBIN, purging(true), real("10.0.0.1", 1)));
        RealServer real = bind(farms, "purging", "10.0.0.1", 1);
        FailurePurges purges = new FailurePurges(farms, new RealRestarts(List.of(), List.of(table), registry), registry);
        purges.failed();
        real.probesFailing(true);
        purges.purge(purges.failed());
        assertThat(table.countBoundTo("purging", real.id(), 0)).isZero();
    }

    @Test
    void clientCountsAreTheLiveBindingsOfEveryTable() {
        Farms farms = farms(farm("aaa", PredictorKind.ROUNDROBIN, FailureDetection.DEFAULT,
                new io.switchboard.director.config.RealConfig(ip("10.0.0.1"), 2123, 1, java.util.OptionalInt.empty(),
                        true, java.util.Map.of(), io.switchboard.director.config.RemovalPolicy.DEFAULT,
                        new io.switchboard.director.config.RealLimits(java.util.OptionalInt.empty(),
                                java.util.OptionalInt.of(3)))));
        RealServer real = bind(farms, "aaa", "10.0.0.1", 1, 2, 3);
        RealClientCounts counts = new RealClientCounts(farms, List.of(table));
        assertThat(counts.due(0)).isTrue();
        assertThat(counts.due(1)).as("not again within the interval").isFalse();
        counts.check(0);
        assertThat(real.limits().clients()).isEqualTo(3);
        assertThat(real.tryTakeNewWork()).isFalse();
        table.removeBoundTo("aaa", real.id());
        counts.check(0);
        assertThat(real.tryTakeNewWork()).isTrue();
    }
}
