package io.switchboard.director.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.spi.Plugins;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

class HomeAgentLoadTest {

    private static int weight(long bindings, int cpu, int memory) {
        return new HomeAgentLoad(bindings, HomeAgentLoad.DEFAULT_MAX_BINDINGS, cpu, memory,
                HomeAgentLoad.DEFAULT_MAX_WEIGHT).weight();
    }

    @Test
    void theDfpFormula() {
        assertThat(weight(0, 16, 16)).as("idle agent").isEqualTo(24);
        assertThat(weight(117_500, 16, 16)).as("half the bindings").isEqualTo(12);
        assertThat(weight(0, 8, 8)).as("half the processor and memory").isEqualTo(12);
        assertThat(weight(117_500, 8, 8)).isEqualTo(6);
        assertThat(weight(235_000, 16, 16)).as("at the binding limit").isZero();
        assertThat(weight(300_000, 16, 16)).as("past it").isZero();
        assertThat(weight(0, 0, 0)).isZero();
        // 234,999 free of 235,000 × 31/32 × 24 = 23.2499 -> 23
        assertThat(weight(1, 16, 15)).isEqualTo(23);
    }

    @Test
    void figuresOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new HomeAgentLoad(0, 235_000, 17, 0, 24)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HomeAgentLoad(-1, 235_000, 1, 0, 24)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HomeAgentLoad(0, 0, 1, 0, 24)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HomeAgentLoad(0, 1, 1, 0, 256)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theAdminApisLoadBodyIsReadByTheModulesWeights() {
        assertThat(Plugins.installed().loadWeights()).contains(HomeAgentLoad.WEIGHTS);
        assertThat(HomeAgentLoad.WEIGHTS.weight(new JsonObject().put("bindings", 117_500).put("cpu", 16)
                .put("memory", 16))).as("defaults: 235000 bindings, weight 24").isEqualTo(12);
        assertThat(HomeAgentLoad.WEIGHTS.weight(new JsonObject().put("bindings", 50).put("maxBindings", 100)
                .put("cpu", 16).put("memory", 16).put("maxWeight", 100))).isEqualTo(50);
        assertThatThrownBy(() -> HomeAgentLoad.WEIGHTS.weight(new JsonObject().put("cpu", 16).put("memory", 16)))
                .as("no bindings").isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> HomeAgentLoad.WEIGHTS.weight(new JsonObject().put("bindings", 0).put("cpu", 17)
                .put("memory", 16))).isInstanceOf(IllegalArgumentException.class);
    }
}
