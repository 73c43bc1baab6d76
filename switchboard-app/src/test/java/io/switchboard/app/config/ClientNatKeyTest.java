package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A virtual server's {@code client-nat} (docs/transparent.md): on by default, off for datagram services only. */
class ClientNatKeyTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String ha, String web) {
        return """
                farms:
                  ha:
                    reals: [{ address: 127.0.0.2, port: 434 }]
                  web:
                    reals: [{ address: 127.0.0.3, port: 80 }]
                virtual-servers:
                  ha: { listen: 127.0.0.1:434, service: ipmobile, farm: ha%s }
                  web: { listen: 127.0.0.1:8080, service: tcp, farm: web%s }
                """.formatted(ha, web);
    }

    @Test
    void onByDefaultAndOffWhereAsked() {
        var servers = LOADER.parse(document(", client-nat: false", "")).virtualServers();
        assertThat(servers.get("ha").clientNat()).isFalse();
        assertThat(servers.get("web").clientNat()).isTrue();
    }

    @Test
    void aTcpServerCannotTurnItOff() {
        assertThat(Rejections.errors(LOADER, document("", ", client-nat: false"))).containsExactly(
                "virtual-servers.web.client-nat: client-nat: false is for datagram services; service 'tcp' is not one");
    }
}
