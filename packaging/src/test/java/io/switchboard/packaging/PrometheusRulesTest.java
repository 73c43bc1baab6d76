package io.switchboard.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * prometheus/switchboard-rules.yml: valid for promtool, its unit tests (switchboard-rules.test.yml)
 * pass, and every metric its rules read, and its tests feed them, is one the director exports.
 */
class PrometheusRulesTest {

    static final Path DIR = Tools.MODULE.resolve("prometheus");
    static final Path RULES = DIR.resolve("switchboard-rules.yml");
    static final Path RULE_TESTS = DIR.resolve("switchboard-rules.test.yml");
    private static final YAMLMapper YAML = new YAMLMapper();
    /** A series of a promtool test: the metric name before its labels. */
    private static final Pattern SERIES_NAME = Pattern.compile("^\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)");

    static Path promtool() {
        return Tools.find("promtool").orElseGet(() -> {
            assumeTrue(false, "promtool is not installed (Debian package prometheus; .ci/run installs it)");
            return null;
        });
    }

    @Test
    void promtoolChecksTheRules() throws Exception {
        Tools.Result check = Tools.run(DIR, promtool().toString(), "check", "rules", RULES.toString());
        assertThat(check.exit()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS");
    }

    @Test
    void promtoolUnitTestsPass() throws Exception {
        Tools.Result test = Tools.run(DIR, promtool().toString(), "test", "rules", RULE_TESTS.getFileName().toString());
        assertThat(test.exit()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }

    @Test
    void everyAlertIsTestedFiring() throws IOException {
        Set<String> alerts = new TreeSet<>();
        rules().forEach(rule -> {
            if (rule.has("alert")) {
                alerts.add(rule.get("alert").asText());
            }
        });
        Set<String> firing = new TreeSet<>();
        for (JsonNode test : YAML.readTree(RULE_TESTS.toFile()).get("tests")) {
            for (JsonNode check : test.path("alert_rule_test")) {
                if (!check.path("exp_alerts").isEmpty()) {
                    firing.add(check.get("alertname").asText());
                }
            }
        }
        assertThat(firing).as("alerts with a test in which they fire").isEqualTo(alerts);
    }

    @Test
    void rulesReadOnlyMetricsTheDirectorExports() throws Exception {
        Set<String> known = known();
        Set<String> read = new TreeSet<>();
        rules().forEach(rule -> read.addAll(PromQl.metricNames(rule.get("expr").asText())));
        assertThat(read).isNotEmpty().allSatisfy(name -> assertThat(known).as("exported or recorded").contains(name));
    }

    @Test
    void unitTestsFeedOnlyMetricsTheDirectorExports() throws Exception {
        Set<String> exported = new TreeSet<>(ExportedMetrics.names());
        exported.addAll(ExportedMetrics.PROMETHEUS_OWN);
        Set<String> fed = new TreeSet<>();
        for (JsonNode test : YAML.readTree(RULE_TESTS.toFile()).get("tests")) {
            for (JsonNode series : test.path("input_series")) {
                Matcher name = SERIES_NAME.matcher(series.get("series").asText());
                assertThat(name.find()).as(series.toString()).isTrue();
                fed.add(name.group(1));
            }
        }
        assertThat(fed).isNotEmpty().allSatisfy(name -> assertThat(exported).as("exported").contains(name));
    }

    /**
     * The cluster and JVM/process meters docs/operations.md lists are ones the director exports (a
     * timer or histogram by its name, exported as {@code _count}, {@code _sum}, ...).
     */
    @Test
    void theOperationsPageListsClusterAndProcessMetricsTheDirectorExports() throws Exception {
        Set<String> exported = ExportedMetrics.names();
        String page = java.nio.file.Files.readString(Tools.MODULE.getParent().resolve("docs").resolve("operations.md"));
        Matcher m = Pattern.compile("`((?:jvm|process|system|switchboard_cluster|switchboard_event_loop)_[a-z0-9_]+)").matcher(page);
        Set<String> listed = new TreeSet<>();
        while (m.find()) {
            listed.add(m.group(1));
        }
        assertThat(listed).hasSizeGreaterThan(20).allSatisfy(name -> assertThat(
                exported.contains(name) || exported.contains(name + "_count")).as(name).isTrue());
    }

    /** The director's metrics, Prometheus's own and the recording rules of the rules file. */
    static Set<String> known() throws Exception {
        Set<String> known = new TreeSet<>(ExportedMetrics.names());
        known.addAll(ExportedMetrics.PROMETHEUS_OWN);
        rules().forEach(rule -> {
            if (rule.has("record")) {
                known.add(rule.get("record").asText());
            }
        });
        return known;
    }

    static List<JsonNode> rules() throws IOException {
        List<JsonNode> all = new ArrayList<>();
        for (JsonNode group : YAML.readTree(RULES.toFile()).get("groups")) {
            group.get("rules").forEach(all::add);
        }
        return all;
    }
}
