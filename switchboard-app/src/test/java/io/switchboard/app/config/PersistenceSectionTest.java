package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.PersistenceConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The {@code persistence} section: bound and checked like the others, and a change of it needs a restart. */
class PersistenceSectionTest {

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
    void theFileAndTheIntervalAreBound() {
        assertThat(LOADER.parse("persistence: { file: /var/lib/switchboard/state.snapshot, interval: 30s }\n" + REST)
                .persistence()).isEqualTo(new PersistenceConfig(Optional.of(Path.of("/var/lib/switchboard/state.snapshot")),
                        Optional.of(Duration.ofSeconds(30))));
        assertThat(LOADER.parse("persistence: { file: state.snapshot }\n" + REST).persistence().interval()).isEmpty();
        assertThat(LOADER.parse(REST).persistence()).isEqualTo(PersistenceConfig.NONE);
        assertThat(PersistenceConfig.NONE.enabled()).isFalse();
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors("persistence: { interval: 0s, every: 1m }\n" + REST)).containsExactlyInAnyOrder(
                "persistence.every: unknown key (known: file, interval)",
                "persistence.file: required: the snapshot file",
                "persistence.interval: must be greater than zero");
        assertThat(errors("persistence: { file: '' }\n" + REST))
                .containsExactly("persistence.file: must not be empty");
    }

    @Test
    void aClusterRefusesIt() {
        assertThat(errors("cluster: { enabled: true, name: core, bind: 127.0.0.1 }\npersistence: { file: state.snapshot }\n" + REST))
                .containsExactly("persistence: not with cluster.enabled: true: a cluster keeps the bindings and "
                        + "sessions on its peers, from which a restarted node catches up");
        assertThat(LOADER.parse("cluster: { enabled: false }\npersistence: { file: state.snapshot }\n" + REST)
                .persistence().enabled()).isTrue();
    }

    @Test
    void aChangeOfItNeedsARestart() {
        ConfigDiff diff = ConfigDiff.between(LOADER.parse("persistence: { file: a.snapshot }\n" + REST),
                LOADER.parse("persistence: { file: b.snapshot, interval: 1m }\n" + REST));

        assertThat(diff.changes()).extracting(Object::toString).containsExactly(
                "changed persistence.file: a.snapshot -> b.snapshot", "changed persistence.interval: null -> 1m");
        assertThat(diff.needsRestart()).containsExactly("persistence.file", "persistence.interval");
    }
}
