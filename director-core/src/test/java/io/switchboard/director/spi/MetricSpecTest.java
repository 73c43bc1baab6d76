package io.switchboard.director.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.testing.DeclaredMeters;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Declared metrics: the specs build what they declare, and the modules' check sees every difference. */
class MetricSpecTest {

    private static final MetricSpec MESSAGES = new MetricSpec("switchboard.toy.messages", MetricSpec.Type.COUNTER,
            "Toy messages, by type", List.of("real", "type"));
    private static final MetricSpec OPEN = new MetricSpec("switchboard.toy.open", MetricSpec.Type.GAUGE,
            "Open toy sessions", List.of());

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicInteger open = new AtomicInteger();

    private void registerBoth() {
        MESSAGES.counter().tag("vserver", "toy").tag("real", "r1").tag("type", "hello").register(registry);
        OPEN.gauge(open, AtomicInteger::get).tag("vserver", "toy").register(registry);
    }

    @Test
    void aSpecBuildsItsMeterNamedAndDescribedAndRefusesToBuildAnotherType() {
        registerBoth();
        assertThat(registry.get("switchboard.toy.messages").counter().getId().getDescription())
                .isEqualTo("Toy messages, by type");
        assertThat(MetricSpec.Type.of(registry.get("switchboard.toy.open").meter())).contains(MetricSpec.Type.GAUGE);
        assertThatThrownBy(() -> OPEN.counter()).isInstanceOf(IllegalStateException.class)
                .hasMessage("metric switchboard.toy.open is declared a GAUGE, not a COUNTER");
        assertThatThrownBy(() -> new MetricSpec("toy.messages", MetricSpec.Type.COUNTER, "", List.of()))
                .hasMessage("metric toy.messages: not under switchboard.");
        assertThatThrownBy(() -> new MetricSpec("switchboard.toy", MetricSpec.Type.COUNTER, "", List.of("vserver")))
                .hasMessage("metric switchboard.toy: vserver and service are not declared");
    }

    @Test
    void theCheckPassesWhenEveryMeterIsDeclaredAlikeAndEveryDeclaredOneRegistered() {
        registerBoth();
        registry.counter("jvm.other"); // not the plug-ins' to declare
        assertThat(DeclaredMeters.differences(List.of(MESSAGES, OPEN), registry)).isEmpty();
    }

    @Test
    void theCheckNamesEachDifference() {
        registerBoth();
        registry.counter("switchboard.toy.stray", "vserver", "toy");
        registry.counter("switchboard.toy.bare");
        MetricSpec openAsCounter = new MetricSpec(OPEN.name(), MetricSpec.Type.COUNTER, OPEN.description(), List.of());
        MetricSpec messagesByType = new MetricSpec(MESSAGES.name(), MetricSpec.Type.COUNTER, "", List.of("type"));
        MetricSpec unused = new MetricSpec("switchboard.toy.unused", MetricSpec.Type.GAUGE, "", List.of());
        MetricSpec bare = new MetricSpec("switchboard.toy.bare", MetricSpec.Type.COUNTER, "", List.of());

        assertThat(DeclaredMeters.differences(List.of(messagesByType, openAsCounter, unused, bare), registry))
                .containsExactlyInAnyOrder(
                        "switchboard.toy.messages: registered with tags [real, type], declared [type]",
                        "switchboard.toy.open: registered a GAUGE, declared a COUNTER",
                        "switchboard.toy.stray: registered, not declared",
                        "switchboard.toy.bare: registered without vserver",
                        "switchboard.toy.unused: declared, not registered");
    }

    @Test
    void twoModulesCannotDeclareOneMetric() {
        PluginModule one = new Declaring(MESSAGES);
        PluginModule other = new Declaring(MESSAGES);
        assertThat(Plugins.of(List.of(one, new Declaring(OPEN))).metrics()).containsExactly(MESSAGES, OPEN);
        assertThatThrownBy(() -> Plugins.of(List.of(one, other))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("declares metric 'switchboard.toy.messages', which another module declares too");
    }

    /** A module of no services that declares metrics. */
    private record Declaring(MetricSpec metric) implements PluginModule {
        @Override
        public List<DatagramService> services() {
            return List.of();
        }

        @Override
        public List<MetricSpec> metrics() {
            return List.of(metric);
        }
    }
}
