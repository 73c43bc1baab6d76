package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A virtual server's {@code access} (IOS {@code access INTERFACE}): the interfaces of this host it
 * serves; each problem refused with its path. {@code lo} is the interface every Linux host has; the
 * namespace test (AccessInterfaceNetnsIT) checks what the kernel does with the sockets.
 */
class AccessKeyTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    @BeforeAll
    static void linux() {
        assumeTrue(System.getProperty("os.name").toLowerCase().startsWith("linux"), "access is Linux only");
    }

    private static String document(String udp, String tcp) {
        return """
                farms:
                  dns:
                    reals: [{ address: 127.0.0.2, port: 53 }]
                  web:
                    reals: [{ address: 127.0.0.3, port: 80 }]
                virtual-servers:
                  dns: { listen: 127.0.0.1:53, service: udp, farm: dns%s }
                  web: { listen: 127.0.0.1:8080, service: tcp, farm: web%s }
                """.formatted(udp, tcp);
    }

    @Test
    void everyInterfaceByDefaultAndTheListedOnesWhereAsked() {
        var servers = LOADER.parse(document(", access: [lo]", "")).virtualServers();
        assertThat(servers.get("dns").access()).containsExactly("lo");
        assertThat(servers.get("web").access()).isEmpty();
    }

    @Test
    void eachProblemIsRefusedWithItsPath() {
        List<String> errors = Rejections.errors(LOADER, document(", access: [lo, nosuch0, lo, 'eth0/1']", ""));
        assertThat(errors).hasSize(3);
        assertThat(errors.get(0)).startsWith("virtual-servers.dns.access[1]: no interface 'nosuch0' on this host (it has: ")
                .contains("lo");
        assertThat(errors.get(1)).isEqualTo("virtual-servers.dns.access[2]: 'lo' listed twice");
        assertThat(errors.get(2)).startsWith("virtual-servers.dns.access[3]: 'eth0/1' is not a Linux interface name");
    }

    @Test
    void notEmptyAndTcpServersTakeItToo() {
        assertThat(Rejections.errors(LOADER, document(", access: []", ", access: [lo]"))).containsExactly(
                "virtual-servers.dns.access: must list at least one interface (leave the key out to serve every"
                        + " interface)");
        assertThat(LOADER.parse(document("", ", access: [lo]")).virtualServers().get("web").access())
                .containsExactly("lo");
    }

    @Test
    void onlyTheEpollTransportBindsToADevice() {
        assertThat(Rejections.errors(LOADER, "transport: io_uring\n" + document(", access: [lo]", "")))
                .containsExactly("virtual-servers.dns.access: access needs transport: epoll (SO_BINDTODEVICE), not io_uring");
        assertThat(LOADER.parse("transport: epoll\n" + document(", access: [lo]", "")).virtualServers()
                .get("dns").access()).containsExactly("lo");
    }

    @Test
    void aChangeOfAccessNeedsARestart() {
        // The sockets are bound to the interfaces when the virtual server starts; a replacement in
        // place keeps them.
        var diff = io.switchboard.app.reload.ConfigDiff.between(LOADER.parse(document("", "")),
                LOADER.parse(document(", access: [lo]", "")));
        assertThat(diff.needsRestart()).containsExactly("virtual-servers.dns.access");
    }
}
