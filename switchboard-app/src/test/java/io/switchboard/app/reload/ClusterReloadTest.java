package io.switchboard.app.reload;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.Services;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import org.junit.jupiter.api.Test;

/** What a node takes of another node's reload: the shared sections, never its own cluster or admin. */
class ClusterReloadTest {

    private static final String MINE = """
            cluster: { enabled: true, name: c1, bind: 127.0.0.1, port: 5801, members: [127.0.0.1:5801, 127.0.0.1:5802] }
            admin: { listen: 127.0.0.1:9001 }
            probes:
              ping: { type: ping }
            farms:
              one:
                probes: [ping]
                reals:
                  - { address: 10.0.0.1, port: 53, weight: 1 }
            virtual-servers:
              vip: { listen: 127.0.0.1:5300, service: udp, farm: one }
            """;

    private static final String THEIRS = """
            cluster: { enabled: true, name: c1, bind: 127.0.0.1, port: 5802, members: [127.0.0.1:5801, 127.0.0.1:5802] }
            admin: { listen: 127.0.0.1:9002 }
            farms:
              one:
                reals:
                  - { address: 10.0.0.1, port: 53, weight: 4 }
                  - { address: 10.0.0.2, port: 53, weight: 1 }
            virtual-servers:
              vip: { listen: 127.0.0.1:5300, service: udp, farm: one }
            """;

    @Test
    void theSharedSectionsComeFromThePublishedDocumentAndTheRestStaysThisNodes() throws Exception {
        ConfigLoader loader = new ConfigLoader(Services.discover().available());
        SwitchboardConfig merged = loader.parse(ClusterReload.withSharedSections(MINE, THEIRS));
        SwitchboardConfig theirs = loader.parse(THEIRS);
        SwitchboardConfig mine = loader.parse(MINE);

        assertThat(merged.cluster()).isEqualTo(mine.cluster());
        assertThat(merged.admin()).isEqualTo(mine.admin());
        assertThat(merged.farms()).isEqualTo(theirs.farms());
        assertThat(merged.virtualServers()).isEqualTo(theirs.virtualServers());
        assertThat(merged.probes()).as("a section the published document lacks goes").isEmpty();
        assertThat(RunningConfig.digest(merged)).isEqualTo(RunningConfig.digest(theirs))
                .isNotEqualTo(RunningConfig.digest(mine));
    }
}
