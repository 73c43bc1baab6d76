package io.switchboard.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * grafana/switchboard.json: a dashboard Grafana can import (JSON, panels with ids of their own, every
 * query on the dashboard's Prometheus variable) whose every query is PromQL promtool accepts and
 * reads only metrics the director exports, or the recording rules shipped beside it.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Tools.MODULE.resolve("grafana").resolve("switchboard.json");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*\\w+\\s*\\)\\s*$");

    @TempDir
    Path dir;

    @Test
    void isADashboardWithPanelsOfTheirOwnOnTheDatasourceVariable() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        assertThat(dashboard.path("title").asText()).isEqualTo("Switchboard");
        assertThat(dashboard.path("uid").asText()).isNotEmpty();
        Set<Integer> ids = new HashSet<>();
        int queried = 0;
        for (JsonNode panel : dashboard.get("panels")) {
            assertThat(ids.add(panel.get("id").asInt())).as("panel id %s used once", panel.get("id")).isTrue();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asText()).as(panel.get("title").asText())
                        .isEqualTo("${datasource}");
                queried++;
            }
        }
        assertThat(queried).isGreaterThan(20);
        assertThat(dashboard.at("/templating/list/0/type").asText()).isEqualTo("datasource");
        assertThat(dashboard.at("/templating/list/0/query").asText()).isEqualTo("prometheus");
    }

    @Test
    void queriesOnlyMetricsTheDirectorExportsOrTheRulesRecord() throws Exception {
        Set<String> known = PrometheusRulesTest.known();
        Set<String> read = new TreeSet<>();
        for (String expr : expressions()) {
            read.addAll(PromQl.metricNames(expr));
        }
        assertThat(read).hasSizeGreaterThan(20)
                .allSatisfy(name -> assertThat(known).as("exported or recorded").contains(name));
    }

    /** Issue 25: replication lag, the cluster's safety and the director's own saturation have panels. */
    @Test
    void showsTheClusterAndTheDirectorsOwnSaturation() throws Exception {
        Set<String> read = new TreeSet<>();
        for (String expr : expressions()) {
            read.addAll(PromQl.metricNames(expr));
        }
        assertThat(read).contains("switchboard_cluster_safe", "switchboard_cluster_replication_lag_seconds",
                "peer:switchboard_cluster_heartbeat_lag_seconds:p99_5m", "switchboard_cluster_heartbeat_age_seconds",
                "jvm_memory_used_bytes", "instance:jvm_gc_pause_seconds:rate5m", "process_cpu_usage",
                "switchboard_event_loop_pending_tasks");
    }

    /** Each query, its Grafana variables given values, as a recording rule: promtool parses them all. */
    @Test
    void everyQueryIsPromQlThatPromtoolAccepts() throws Exception {
        Path promtool = PrometheusRulesTest.promtool();
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
        int n = 0;
        for (String expr : expressions()) {
            String concrete = expr.replaceAll("\\$__\\w+", "5m").replaceAll("\\$\\w+", ".*");
            rules.append("      - record: dashboard:query_").append(++n).append('\n')
                    .append("        expr: '").append(concrete.replace("'", "''")).append("'\n");
        }
        Path file = Files.writeString(dir.resolve("dashboard-queries.yml"), rules);
        Tools.Result check = Tools.run(dir, promtool.toString(), "check", "rules", file.toString());
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + n + " rules found");
    }

    /** The PromQL of every panel's targets and of the query variables (label_values' selector). */
    private static List<String> expressions() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> exprs = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            panel.path("targets").forEach(t -> exprs.add(t.get("expr").asText()));
        }
        for (JsonNode variable : dashboard.at("/templating/list")) {
            if ("query".equals(variable.path("type").asText())) {
                Matcher m = LABEL_VALUES.matcher(variable.at("/query/query").asText());
                assertThat(m.matches()).as(variable.toString()).isTrue();
                exprs.add(m.group(1));
            }
        }
        return exprs;
    }
}
