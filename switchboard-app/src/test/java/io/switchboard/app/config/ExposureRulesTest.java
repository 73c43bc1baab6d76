package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Exposure;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.bind.ConfigError;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The safe defaults of the cluster, admin and DAE planes (docs/securing.md): each refusal by its
 * configuration path, and what an explicit configuration is allowed.
 */
class ExposureRulesTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static final String REST = """
            farms:
              ggsn:
                reals: [{ address: 127.0.0.2, port: 2123 }]
            virtual-servers:
              gtp-c: { listen: 127.0.0.1:2123, service: gtp, farm: ggsn }
            """;

    private static List<String> errors(String yaml) {
        return Rejections.errors(LOADER, yaml + REST);
    }

    private static SwitchboardConfig parse(String yaml) {
        return LOADER.parse(yaml + REST);
    }

    // ---- cluster ----------------------------------------------------------------------------------

    @Test
    void aClusterWithNothingElseIsRefusedForItsBindAndItsName() {
        assertThat(errors("cluster: { enabled: true }\n")).containsExactlyInAnyOrder(
                "cluster.name: required with enabled: true, not 'switchboard': each deployment names its own"
                        + " cluster, since any process presenting the name is admitted",
                "cluster.bind: required with enabled: true: the address of this node's cluster interface (or 'any'"
                        + " for every interface)");
        assertThat(errors("cluster: { enabled: true, name: switchboard, bind: 10.0.0.1 }\n")).containsExactly(
                "cluster.name: must not be the default 'switchboard': each deployment names its own cluster,"
                        + " since any process presenting the name is admitted");
    }

    @Test
    void aPublicBindIsRefusedUnlessAcknowledged() throws Exception {
        assertThat(errors("cluster: { enabled: true, name: core, bind: 192.0.2.1 }\n")).containsExactly(
                "cluster.bind: 192.0.2.1 is a public address and the cluster port has no authentication of its"
                        + " own: bind a private address (carried over IPsec, see docs/securing.md), or write"
                        + " exposure: public-acknowledged");
        assertThat(errors("cluster: { enabled: true, name: core, bind: \"2001:db8::1\" }\n")).hasSize(1);
        ClusterConfig acknowledged = parse("cluster: { enabled: true, name: core, bind: 192.0.2.1,"
                + " exposure: public-acknowledged }\n").cluster();
        assertThat(acknowledged.bind()).contains(InetAddress.getByName("192.0.2.1"));
        assertThat(acknowledged.exposure()).isEqualTo(Exposure.PUBLIC_ACKNOWLEDGED);
        assertThat(errors("cluster: { enabled: true, name: core, bind: 10.0.0.1, exposure: open }\n"))
                .containsExactly("cluster.exposure: unknown value 'open' (known: private, public-acknowledged)");
    }

    @Test
    void privateBindsAndAnyWrittenOutAreAccepted() throws Exception {
        for (String bind : List.of("10.1.2.3", "172.16.0.1", "192.168.1.1", "100.64.0.1", "127.0.0.1", "fd00::1",
                "fe80::1")) {
            assertThat(parse("cluster: { enabled: true, name: core, bind: \"" + bind + "\" }\n").cluster().bind())
                    .as(bind).contains(InetAddress.getByName(bind));
        }
        assertThat(parse("cluster: { enabled: true, name: core, bind: any }\n").cluster().bind()).isEmpty();
        assertThat(errors("cluster: { enabled: true, name: core, bind: 0.0.0.0 }\n"))
                .containsExactly("cluster.bind: '0.0.0.0' is every interface: write 'any' to mean it");
    }

    @Test
    void aSingleNodeNeedsNoneOfIt() {
        assertThat(parse("cluster: { enabled: false }\n").cluster()).isEqualTo(ClusterConfig.SINGLE_NODE);
        assertThat(parse("").cluster().name()).isEqualTo(ClusterConfig.DEFAULT_NAME);
    }

    @Test
    void theUnlistedMemberPolicyIsReportOrLeave() {
        String cluster = "cluster: { enabled: true, name: core, bind: 10.0.0.1, unlisted-member: %s }\n";
        assertThat(parse(cluster.formatted("leave")).cluster().unlistedMember())
                .isEqualTo(ClusterConfig.UnlistedMember.LEAVE);
        assertThat(parse("cluster: { enabled: true, name: core, bind: 10.0.0.1 }\n").cluster().unlistedMember())
                .isEqualTo(ClusterConfig.UnlistedMember.REPORT);
        assertThat(errors(cluster.formatted("ignore")))
                .containsExactly("cluster.unlisted-member: unknown value 'ignore' (known: report, leave)");
    }

    // ---- admin ------------------------------------------------------------------------------------

    @Test
    void anAdminListenerOffLoopbackNeedsAToken() {
        assertThat(errors("admin: { listen: 10.0.0.1:8080 }\n")).containsExactly(
                "admin.token: required when listen is not a loopback address: anyone who reaches 10.0.0.1:8080"
                        + " could change the reals and the configuration");
        assertThat(parse("admin: { listen: 10.0.0.1:8080, token: t0k3n }\n").admin().token()).contains("t0k3n");
        assertThat(parse("admin: { listen: 127.0.0.1:8080 }\n").admin().token()).isEmpty();
    }

    @Test
    void anAdminListenerOnAPublicOrEveryAddressNeedsExposure() {
        assertThat(errors("admin: { listen: 0.0.0.0:8080, token: t }\n")).containsExactly(
                "admin.listen: every interface: the admin API changes reals and the configuration; listen on a"
                        + " private address, or write exposure: public-acknowledged");
        assertThat(errors("admin: { listen: 198.51.100.7:8080, token: t }\n")).containsExactly(
                "admin.listen: a public address: the admin API changes reals and the configuration; listen on a"
                        + " private address, or write exposure: public-acknowledged");
        assertThat(parse("admin: { listen: 0.0.0.0:8080, token: t, exposure: public-acknowledged }\n").admin()
                .exposure()).isEqualTo(Exposure.PUBLIC_ACKNOWLEDGED);
        assertThat(parse("admin: { listen: 0.0.0.0:8080, enabled: false }\n").admin().enabled()).isFalse();
    }

    // ---- DAE --------------------------------------------------------------------------------------

    @Test
    void theDaePlaneNamesItsAddress() {
        String dae = """
                farms:
                  aaa:
                    reals: [{ address: 127.0.0.2, port: 1812, secret: s }]
                virtual-servers:
                  auth:
                    listen: 127.0.0.10:1812
                    service: radius
                    farm: aaa
                    sticky: { keys: [calling-station-id], idle: 1h }
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                  dae:
                    listen: %s:3799
                    service: radius-dae
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: s } ]
                    dae: { sessions: auth }
                """;
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> LOADER.parse(dae.formatted("0.0.0.0")));
        assertThat(e).isNotNull();
        assertThat(e.errors().stream().map(ConfigError::toString)).containsExactly(
                "virtual-servers.dae.listen: every interface: name the address the AAA servers send Disconnect-"
                        + " and CoA-Requests to");
        assertThat(LOADER.parse(dae.formatted("127.0.0.10")).virtualServers()).containsKey("dae");
    }
}
