package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.Endpoint;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code dfp} section: bound and checked like the others, and a change of it needs a restart. */
class DfpSectionTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String REST = """
            farms:
              ggsn:
                reals: [{ address: 127.0.0.2, port: 2123 }]
            virtual-servers:
              gtp-c: { listen: 127.0.0.1:2123, service: gtp, farm: ggsn }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void agentsBindIdsTheListenerAndBuiltInsAreBound() throws Exception {
        DfpConfig dfp = LOADER.parse("""
                dfp:
                  password: k3y
                  agents:
                    - { address: 10.0.0.5, port: 8080, timeout: 30s, retry-count: 3, retry-interval: 10s }
                    - { address: 10.0.0.6, port: 8080 }
                  bind-ids: { ggsn: 7 }
                  agent: { listen: 127.0.0.1:8081, interval: 5s }
                  built-in:
                    - { farm: ggsn, formula: ggsn, max-contexts: 2000, max-weight: 20, interval: 2s }
                """ + REST).dfp();
        InetAddress five = InetAddress.getByName("10.0.0.5");
        InetAddress six = InetAddress.getByName("10.0.0.6");
        assertThat(dfp).isEqualTo(new DfpConfig(Optional.of("k3y"), List.of(
                new DfpConfig.Agent(five, 8080, Duration.ofSeconds(30), 3, Duration.ofSeconds(10)),
                new DfpConfig.Agent(six, 8080, Duration.ZERO, 0, DfpConfig.DEFAULT_RETRY_INTERVAL)),
                Map.of("ggsn", 7),
                Optional.of(new DfpConfig.AgentListener(new Endpoint(InetAddress.getByName("127.0.0.1"), 8081),
                        Duration.ofSeconds(5))),
                List.of(new DfpConfig.BuiltIn("ggsn", DfpConfig.Formula.GGSN, 2000, 20, Duration.ofSeconds(2)))));
        assertThat(LOADER.parse(REST).dfp()).isEqualTo(DfpConfig.NONE);
        assertThat(LOADER.parse("dfp: { agents: [{ address: 10.0.0.5, port: 1, timeout: 0 }] }\n" + REST).dfp()
                .agents().get(0).timeout()).isZero();
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors("""
                dfp:
                  password: %s
                  agents:
                    - { address: 10.0.0.5, port: 0, timeout: -1s, retry-count: -1 }
                    - { port: 8080 }
                    - { address: 10.0.0.7, port: 8080 }
                    - { address: 10.0.0.7, port: 8080 }
                  bind-ids: { nope: 70000 }
                  agent: { interval: 1s }
                  built-in:
                    - { farm: ggsn, formula: home-agent, max-weight: 101 }
                """.formatted("x".repeat(65)) + REST)).containsExactlyInAnyOrder(
                "dfp.password: must be 1..64 ASCII characters (draft-eck-dfp-01 §5.1.1)",
                "dfp.agents[0].port: must be 1..65535",
                "dfp.agents[0].timeout: '-1s' is not a duration; use a whole number and a unit (500ms, 30s, 5m, 1h,"
                        + " 1d) or ISO-8601 (PT30S)",
                "dfp.agents[0].retry-count: must be 0..65535",
                "dfp.agents[1].address: required: the agent's IPv4 or IPv6 address",
                "dfp.agents[3]: a second agent 10.0.0.7:8080",
                "dfp.bind-ids.nope: no farm named nope",
                "dfp.bind-ids.nope: must be 0..65535",
                "dfp.agent.listen: required: the address and port managers connect to",
                "dfp.built-in[0].formula: must be ggsn (a home agent's formula is the admin API's load endpoint)",
                "dfp.built-in[0].max-weight: must be 1..100");
    }

    @Test
    void aChangeOfItNeedsARestart() {
        var running = LOADER.parse(REST);
        var next = LOADER.parse("dfp: { agents: [{ address: 10.0.0.5, port: 8080 }] }\n" + REST);
        assertThat(ConfigDiff.between(running, next).needsRestart()).anySatisfy(c -> assertThat(c).contains("dfp"));
        assertThat(ConfigDiff.between(running, running).needsRestart()).isEmpty();
    }
}
