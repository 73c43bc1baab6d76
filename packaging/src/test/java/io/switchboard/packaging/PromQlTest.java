package io.switchboard.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The name finder the rules and dashboard tests rely on: it must miss no metric and take no label. */
class PromQlTest {

    @Test
    void findsMetricsAndRecordingRulesButNotLabelsFunctionsOrKeywords() {
        assertThat(PromQl.metricNames("sum by (vserver, reason) (rate(switchboard_dropped_total"
                + "{instance=~\"$instance\",reason!~\"a|b\"}[$__rate_interval])) > 0"))
                .containsExactly("switchboard_dropped_total");
        assertThat(PromQl.metricNames("(farm:switchboard_reals_operational:sum > 0 < 2)\n"
                + "  and on (job, instance, farm) (farm:switchboard_reals:count >= 2)"))
                .containsExactly("farm:switchboard_reals:count", "farm:switchboard_reals_operational:sum");
        assertThat(PromQl.metricNames("a_total / on (job) group_left (farm) b offset 5m or vector(0)"))
                .containsExactly("a_total", "b");
        assertThat(PromQl.metricNames("label_values(switchboard_real_state{instance=~\"$instance\"}, farm)"))
                .containsExactly("switchboard_real_state");
        assertThat(PromQl.metricNames("count without (real, state) (up{job=\"switchboard\"} == 0)"))
                .containsExactly("up");
    }
}
