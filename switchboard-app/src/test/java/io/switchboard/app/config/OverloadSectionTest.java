package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.OverloadConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A virtual server's {@code overload} section: bound, refused by path when wrong, applied by a reload, documented. */
class OverloadSectionTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String overload) {
        return """
                farms:
                  ggsn:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                  web:
                    reals: [{ address: 127.0.0.3, port: 80 }]
                virtual-servers:
                  gtp-c:
                    listen: 127.0.0.1:2123
                    service: gtp
                    farm: ggsn
                """ + overload.indent(4) + """
                  web: { listen: 127.0.0.1:8080, service: tcp, farm: web }
                """;
    }

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml);
    }

    @Test
    void theLimitsAreBound() {
        assertThat(LOADER.parse(document("""
                overload:
                  new-per-second: 500
                  new-per-peer-per-second: 100
                  capacity-per-second: 2000
                  session-reserve-percent: 30
                  burst: 200ms
                """)).virtualServers().get("gtp-c").overload())
                .isEqualTo(new OverloadConfig(500, 100, 2000, 30, Duration.ofMillis(200)));
        assertThat(LOADER.parse(document("overload: { new-per-second: 5 }")).virtualServers().get("gtp-c").overload())
                .isEqualTo(new OverloadConfig(5, 0, 0, 20, Duration.ofSeconds(1)));
        assertThat(LOADER.parse(document("")).virtualServers().get("gtp-c").overload()).isEqualTo(OverloadConfig.NONE);
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(errors(document("overload: { burst: 1s, rate: 5 }"))).containsExactlyInAnyOrder(
                "virtual-servers.gtp-c.overload.rate: unknown key (known: new-per-second, new-per-peer-per-second,"
                        + " capacity-per-second, session-reserve-percent, burst)",
                "virtual-servers.gtp-c.overload: give at least one of new-per-second, new-per-peer-per-second,"
                        + " capacity-per-second");
        assertThat(errors(document("""
                overload: { new-per-second: 0, new-per-peer-per-second: 50, session-reserve-percent: 95 }
                """))).containsExactlyInAnyOrder(
                "virtual-servers.gtp-c.overload.new-per-second: must be 1..1000000",
                "virtual-servers.gtp-c.overload.session-reserve-percent: must be 0..90",
                "virtual-servers.gtp-c.overload.session-reserve-percent: is a share of capacity-per-second,"
                        + " which is not given");
        assertThat(errors(document("overload: { new-per-second: 100, new-per-peer-per-second: 200, capacity-per-second: 50 }")))
                .containsExactlyInAnyOrder(
                        "virtual-servers.gtp-c.overload.new-per-second: must not exceed capacity-per-second (50)",
                        "virtual-servers.gtp-c.overload.new-per-peer-per-second: must not exceed new-per-second (100)");
        assertThat(errors(document("").replace("web: { listen: 127.0.0.1:8080, service: tcp, farm: web }",
                "web: { listen: 127.0.0.1:8080, service: tcp, farm: web, overload: { new-per-second: 5 } }")))
                .containsExactly("virtual-servers.web.overload: service 'tcp' takes connections, not datagrams:"
                        + " it has no admission control");
    }

    @Test
    void aReloadReplacesTheVirtualServerInPlace() {
        ConfigDiff diff = ConfigDiff.between(LOADER.parse(document("overload: { new-per-second: 5 }")),
                LOADER.parse(document("overload: { new-per-second: 50 }")));
        assertThat(diff.changes()).extracting(Object::toString).hasSize(1).first().asString()
                .startsWith("changed virtual-servers.gtp-c.overload: ");
        assertThat(diff.needsRestart()).isEmpty();
    }

    @Test
    void everyKeyIsDocumentedOnItsPage() throws IOException {
        String text = Files.readString(Path.of("..", "docs", "overload.md"));
        for (String key : OverloadBinder.OVERLOAD.names()) {
            assertThat(text).as("documented overload key %s", key).contains("| `" + key + "` |");
        }
    }
}
