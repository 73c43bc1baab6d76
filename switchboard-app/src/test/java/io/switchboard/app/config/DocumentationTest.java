package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.radius.DaeOptionsBinder;
import io.switchboard.director.radius.RadiusOptionsBinder;
import io.switchboard.director.radius.radsec.RadsecOptionsBinder;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The documentation says what the loader and the plug-ins' {@link ServiceSpec}s say: the service matrix of the
 * configuration reference (docs/configuration.md) and every key, in the reference or in its director's page
 * (a plug-in's own keys, such as RADIUS's {@code dae}, are documented beside the plug-in in docs/radius.md).
 */
class DocumentationTest {

    /** Surefire runs in the module directory; the documentation lives in the repository's docs/. */
    private static final Path DOCS = Path.of("..", "docs");
    private static final Path REFERENCE = DOCS.resolve("configuration.md");

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
        String text = allPages();
        List<List<String>> keySets = List.of(ConfigBinder.ROOT_KEYS, ConfigBinder.CLUSTER_KEYS,
                ConfigBinder.ADMIN_KEYS, ConfigBinder.ADMIN_TLS_KEYS, ConfigBinder.PERSISTENCE_KEYS, ConfigBinder.FARM_KEYS, ConfigBinder.FAILURE_KEYS, ConfigBinder.REAL_KEYS,
                ConfigBinder.VIRTUAL_SERVER_KEYS, ConfigBinder.STICKY_KEYS, ConfigBinder.PROBE_KEYS,
                RouteHealthBinder.KEYS, RouteHealthBinder.BGP_KEYS, RouteHealthBinder.NEIGHBOUR_KEYS, RadiusOptionsBinder.CLIENT_KEYS, RadiusOptionsBinder.RADIUS_KEYS,
                RadiusOptionsBinder.FRAMED_IP_KEYS, ConfigBinder.ROUTE_MAP_KEYS, RadiusOptionsBinder.VSA_KEYS,
                RadiusOptionsBinder.DUPLICATES_KEYS, RadiusOptionsBinder.DAE_SESSIONS_KEYS, DaeOptionsBinder.NAS_KEYS,
                DaeOptionsBinder.DAE_KEYS,
                DispatchedBinder.FIREWALL_FARM_KEYS, DispatchedBinder.FIREWALL_KEYS, DispatchedBinder.VPN_FARM_KEYS,
                DispatchedBinder.VPN_REAL_KEYS, DispatchedBinder.LINK_KEYS, ClientFarmsBinder.KEYS);
        for (List<String> keys : keySets) {
            for (String key : keys) {
                assertThat(text).as("documented key %s", key).contains("| `" + key + "` |");
            }
        }
        for (StickyKind kind : Plugins.installed().stickyKinds()) {
            assertThat(text).contains("`" + kind.configName() + "`");
        }
    }

    private static String allPages() throws IOException {
        try (Stream<Path> pages = Files.list(DOCS)) {
            StringBuilder text = new StringBuilder();
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                text.append(Files.readString(page)).append('\n');
            }
            return text.toString();
        }
    }

    /** The {@code radsec:} keys have their page of their own (docs/radsec.md). */
    @Test
    void everyRadsecKeyIsDocumentedOnItsPage() throws IOException {
        String text = Files.readString(Path.of("..", "docs", "radsec.md"));
        for (List<String> keys : List.of(RadsecOptionsBinder.KEYS, RadsecOptionsBinder.TLS_KEYS)) {
            for (String key : keys) {
                assertThat(text).as("documented radsec key %s", key).contains("| `" + key + "` |");
            }
        }
    }
}
