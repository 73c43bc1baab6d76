package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
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
 * The documentation says what the loader and the plug-ins' {@link ServiceSpec}s say: the service matrix of
 * docs/configuration.md, the sticky key kinds, and radsec.md's key table. Every key's own documentation is
 * the generated docs/configuration-reference.md ({@link ConfigReferenceTest}).
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

    /**
     * Every key is documented in docs/configuration-reference.md, generated from the declarations
     * (ConfigReferenceTest: current, and no key without a description); the sticky key kinds, which
     * are values rather than keys, are named in the pages.
     */
    @Test
    void everyStickyKeyKindIsDocumented() throws IOException {
        String text = allPages();
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
        for (List<String> keys : List.of(RadsecOptionsBinder.RADSEC.names(), RadsecOptionsBinder.TLS.names())) {
            for (String key : keys) {
                assertThat(text).as("documented radsec key %s", key).contains("| `" + key + "` |");
            }
        }
    }
}
