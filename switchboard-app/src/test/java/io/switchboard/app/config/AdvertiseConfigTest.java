package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.SwitchboardConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code advertise:} on a virtual server: {@code active} (or {@code true}, what it always meant) while a
 * real serves, {@code inservice} while the server is in service (IOS's default), {@code false} never;
 * anything else refused by its path; a change between them applied in place by a reload.
 */
class AdvertiseConfigTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String yaml(String a, String b) {
        return """
                route-health: { hook: /usr/local/sbin/route }
                farms:
                  aaa:
                    reals: [{ address: 127.0.0.2, port: 1812 }]
                virtual-servers:
                  a: { listen: 10.99.0.1:1812, service: udp, farm: aaa, advertise: %s }
                  b: { listen: 10.99.0.2:1812, service: udp, farm: aaa, advertise: %s }
                  c: { listen: 10.99.0.3:1812, service: udp, farm: aaa }
                """.formatted(a, b);
    }

    @Test
    void eachValueIsBound() {
        SwitchboardConfig config = LOADER.parse(yaml("true", "inservice"));
        assertThat(config.routeHealth().advertise("a")).hasValue(Advertise.ACTIVE);
        assertThat(config.routeHealth().advertise("b")).hasValue(Advertise.INSERVICE);
        assertThat(config.routeHealth().advertise("c")).isEmpty();

        SwitchboardConfig other = LOADER.parse(yaml("Active", "false"));
        assertThat(other.routeHealth().advertise("a")).hasValue(Advertise.ACTIVE);
        assertThat(other.routeHealth().advertise("b")).isEmpty();
        assertThat(other.routeHealth().advertised()).containsExactly("a");
    }

    @Test
    void anythingElseIsRefusedByItsPath() {
        assertThat(Rejections.errors(LOADER, yaml("always", "3"))).containsExactly(
                "virtual-servers.a.advertise: must be false, true, active (while a real serves) or inservice (while"
                        + " the virtual server is in service), not 'always'",
                "virtual-servers.b.advertise: must be false, true, active (while a real serves) or inservice (while"
                        + " the virtual server is in service), not an integer");
    }

    @Test
    void anAdvertisedServerNeedsAHook() {
        assertThat(Rejections.errors(LOADER, yaml("inservice", "false").replace("route-health: { hook: /usr/local/sbin/route }\n", "")))
                .containsExactly("route-health.hook: required (or route-health.bgp): virtual servers [a] have advertise set");
    }

    @Test
    void aChangeOfWhenIsAppliedInPlace() {
        ConfigDiff diff = ConfigDiff.between(LOADER.parse(yaml("active", "inservice")),
                LOADER.parse(yaml("inservice", "inservice")));
        assertThat(diff.needsRestart()).isEmpty();
        assertThat(diff.changes()).extracting(Object::toString).singleElement().asString()
                .contains("virtual-servers.a.advertise").contains("active").contains("inservice");
    }
}
