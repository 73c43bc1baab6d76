package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.radius.DaeOptionsBinder;
import io.switchboard.director.radius.RadiusOptionsBinder;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The configuration reference in the README says what the loader and the plug-ins' {@link ServiceSpec}s say. */
class DocumentationTest {

    /** Surefire runs in the module directory; the reference lives at the repository root. */
    private static final Path REFERENCE = Path.of("..", "README.md");

    @Test
    void serviceMatrixMatchesTheServicesDeclared() throws IOException {
        assertThat(REFERENCE).exists();
        String text = Files.readString(REFERENCE);
        String matrix = text.substring(text.indexOf("<!-- service-matrix"), text.indexOf("<!-- /service-matrix"));
        List<String> rows = matrix.lines().filter(l -> l.startsWith("| `")).toList();

        List<String> expected = new ArrayList<>();
        for (ServiceSpec service : Plugins.installed().services().stream().map(s -> s.spec()).toList()) {
            String predictors = Arrays.stream(PredictorKind.values())
                    .map(p -> service.allows(p) ? "yes" : "no").collect(Collectors.joining(" | "));
            String keys = service.stickyKinds().isEmpty() ? "none (no `sticky`)"
                    : service.stickyKinds().stream().map(k -> "`" + k.configName() + "`")
                            .collect(Collectors.joining(", "));
            expected.add("| `" + service.name() + "` | " + service.transport()
                    + " | " + predictors + " | " + keys + " |");
        }
        assertThat(rows).containsExactlyElementsOf(expected);
        assertThat(matrix).contains("| Service | Transport | " + Arrays.stream(PredictorKind.values())
                .map(PredictorKind::configName).collect(Collectors.joining(" | ")) + " | Sticky keys |");
    }

    @Test
    void everyKeyTheLoaderKnowsIsDocumented() throws IOException {
        assertThat(REFERENCE).exists();
        // route-health.bgp's keys are in the page on deploying a cluster, the README points there.
        String text = Files.readString(REFERENCE) + Files.readString(Path.of("..", "docs", "deploying-a-cluster.md"));
        List<List<String>> keySets = List.of(ConfigBinder.ROOT_KEYS, ConfigBinder.CLUSTER_KEYS,
                ConfigBinder.ADMIN_KEYS, ConfigBinder.PERSISTENCE_KEYS, ConfigBinder.FARM_KEYS, ConfigBinder.FAILURE_KEYS, ConfigBinder.REAL_KEYS,
                ConfigBinder.VIRTUAL_SERVER_KEYS, ConfigBinder.STICKY_KEYS, ConfigBinder.PROBE_KEYS,
                RouteHealthBinder.KEYS, RouteHealthBinder.BGP_KEYS, RouteHealthBinder.NEIGHBOUR_KEYS, RadiusOptionsBinder.CLIENT_KEYS, RadiusOptionsBinder.RADIUS_KEYS,
                RadiusOptionsBinder.FRAMED_IP_KEYS, ConfigBinder.ROUTE_MAP_KEYS, RadiusOptionsBinder.VSA_KEYS,
                RadiusOptionsBinder.DUPLICATES_KEYS, RadiusOptionsBinder.DAE_SESSIONS_KEYS, DaeOptionsBinder.NAS_KEYS,
                DaeOptionsBinder.DAE_KEYS,
                DispatchedBinder.FIREWALL_FARM_KEYS, DispatchedBinder.FIREWALL_KEYS, DispatchedBinder.VPN_FARM_KEYS,
                DispatchedBinder.VPN_REAL_KEYS, DispatchedBinder.LINK_KEYS);
        for (List<String> keys : keySets) {
            for (String key : keys) {
                assertThat(text).as("documented key %s", key).contains("| `" + key + "` |");
            }
        }
        for (StickyKind kind : Plugins.installed().stickyKinds()) {
            assertThat(text).contains("`" + kind.configName() + "`");
        }
    }
}
