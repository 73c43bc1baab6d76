package io.switchboard.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * When route health announces a virtual address, as IOS's {@code advertise} decides it (Cisco IOS SLB
 * Command Reference, "advertise"; IOS-SLB.md A27 and behaviour 19): by default while the virtual
 * server is in service, with {@code advertise active} only while one of its reals serves too.
 */
class AdvertiseTest {

    @Test
    void activeNeedsTheServerInServiceAndARealThatServes() {
        assertThat(Advertise.ACTIVE.announced(true, true)).isTrue();
        assertThat(Advertise.ACTIVE.announced(true, false)).as("last real gone: withdrawn").isFalse();
        assertThat(Advertise.ACTIVE.announced(false, true)).as("server out of service").isFalse();
        assertThat(Advertise.ACTIVE.announced(false, false)).isFalse();
    }

    @Test
    void inserviceNeedsTheServerInServiceOnly() {
        assertThat(Advertise.INSERVICE.announced(true, true)).isTrue();
        assertThat(Advertise.INSERVICE.announced(true, false)).as("announced whatever its reals").isTrue();
        assertThat(Advertise.INSERVICE.announced(false, true)).as("no inservice: withdrawn").isFalse();
        assertThat(Advertise.INSERVICE.announced(false, false)).isFalse();
    }

    @Test
    void theConfigurationNamesAreReadInAnyCaseAndNothingElse() {
        assertThat(Advertise.named("active")).hasValue(Advertise.ACTIVE);
        assertThat(Advertise.named("InService")).hasValue(Advertise.INSERVICE);
        assertThat(Advertise.named("always")).isEmpty();
        assertThat(Advertise.ACTIVE.configName()).isEqualTo("active");
    }

    @Test
    void aSetOfAdvertisedNamesMeansActiveAsBefore() {
        RouteHealthConfig old = new RouteHealthConfig(Optional.of(Path.of("/hook")), Duration.ofSeconds(1),
                Set.of("b", "a"));
        assertThat(old.advertise("a")).hasValue(Advertise.ACTIVE);
        assertThat(old.advertise("c")).isEmpty();
        assertThat(old.advertised()).containsExactly("a", "b");

        RouteHealthConfig both = new RouteHealthConfig(Optional.empty(), Duration.ofSeconds(1),
                Map.of("x", Advertise.INSERVICE, "y", Advertise.ACTIVE), Optional.empty());
        assertThat(both.advertise("x")).hasValue(Advertise.INSERVICE);
        assertThat(both.advertised()).containsExactly("x", "y");
    }
}
