package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.ClientFarm;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A virtual server's {@code client-farms}: bound, refused by path when wrong, decided by longest prefix, reloaded. */
class ClientFarmsSectionTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String clientFarms) {
        return """
                farms:
                  public: { reals: [{ address: 127.0.0.2, port: 80 }] }
                  inside: { reals: [{ address: 127.0.0.3, port: 80 }] }
                  lab: { reals: [{ address: 127.0.0.4, port: 80 }] }
                virtual-servers:
                  web:
                    listen: 127.0.0.1:8080
                    service: tcp
                    farm: public
                """ + clientFarms.indent(4);
    }

    @Test
    void theEntriesAreBoundAndTheLongestPrefixDecides() throws Exception {
        VirtualServerConfig web = LOADER.parse(document("""
                client-farms:
                  - { clients: [10.4.0.0/16, 192.0.2.7], farm: inside }
                  - { clients: [10.4.9.0/24], farm: lab }
                """)).virtualServers().get("web");
        assertThat(web.clientFarms()).containsExactly(
                new ClientFarm(List.of(AddressLiterals.parseSubnet("10.4.0.0/16"),
                        AddressLiterals.parseSubnet("192.0.2.7/32")), "inside"),
                new ClientFarm(List.of(AddressLiterals.parseSubnet("10.4.9.0/24")), "lab"));
        assertThat(web.farmFor(InetAddress.getByName("10.4.1.1"))).isEqualTo("inside");
        assertThat(web.farmFor(InetAddress.getByName("10.4.9.200"))).isEqualTo("lab");
        assertThat(web.farmFor(InetAddress.getByName("192.0.2.7"))).isEqualTo("inside");
        assertThat(web.farmFor(InetAddress.getByName("192.0.2.8"))).isEqualTo("public");
        assertThat(web.farmFor(InetAddress.getByName("2001:db8::1"))).isEqualTo("public");
        assertThat(LOADER.parse(document("")).virtualServers().get("web").clientFarms()).isEmpty();
    }

    @Test
    void mistakesAreReportedByPath() {
        assertThat(Rejections.errors(LOADER, document("""
                client-farms:
                  - { clients: [10.4.0.0/16], farm: nowhere }
                  - { clients: [10.4.0.0/16, 10.5.0.0/33], farm: lab }
                  - { clients: [], farm: lab, rate: 5 }
                  - { farm: lab }
                """))).containsExactlyInAnyOrder(
                "virtual-servers.web.client-farms[1].clients[0]: 10.4.0.0/16 is already at"
                        + " virtual-servers.web.client-farms[0].clients[0]",
                "virtual-servers.web.client-farms[1].clients[1]: '10.5.0.0/33': prefix longer than the address",
                "virtual-servers.web.client-farms[2].rate: unknown key (known: clients, farm)",
                "virtual-servers.web.client-farms[2].clients: must list at least one subnet",
                "virtual-servers.web.client-farms[3].clients: required: the client subnets, e.g. [10.4.0.0/16]");
        assertThat(Rejections.errors(LOADER, document("client-farms: [{ clients: [10.4.0.0/16], farm: nowhere }]")))
                .containsExactly("virtual-servers.web.client-farms[0].farm: no farm named 'nowhere'");
    }

    @Test
    void aReloadNamesTheChange() {
        ConfigDiff diff = ConfigDiff.between(LOADER.parse(document("")),
                LOADER.parse(document("client-farms: [{ clients: [10.4.0.0/16], farm: inside }]")));
        assertThat(diff.changes()).extracting(Object::toString).hasSize(1).first().asString()
                .startsWith("changed virtual-servers.web.client-farms: ");
    }
}
