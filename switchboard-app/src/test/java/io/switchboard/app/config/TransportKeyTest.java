package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.app.reload.ConfigDiff;
import io.switchboard.director.config.TransportKind;
import io.switchboard.director.transport.Transports;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The top-level {@code transport} (docs/operations.md): one choice for every socket of the node. */
class TransportKeyTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    private static String document(String transport, String vsExtra) {
        return transport + """
                farms:
                  ha:
                    reals: [{ address: 127.0.0.2, port: 434 }]
                virtual-servers:
                  ha: { listen: 127.0.0.1:434, service: ipmobile, farm: ha%s }
                """.formatted(vsExtra);
    }

    @Test
    void absentItIsTheDefaultAndEachValueIsRead() {
        assertThat(LOADER.parse(document("", "")).transport()).isEmpty();
        assertThat(LOADER.parse(document("transport: io_uring\n", "")).transport()).contains(TransportKind.IO_URING);
        assertThat(LOADER.parse(document("transport: epoll\n", "")).transport()).contains(TransportKind.EPOLL);
        assertThat(LOADER.parse(document("transport: nio\n", "")).transport()).contains(TransportKind.NIO);
    }

    @Test
    void anUnknownTransportIsRefusedWithItsPath() {
        assertThat(Rejections.errors(LOADER, document("transport: iouring\n", ""))).containsExactly(
                "transport: unknown transport 'iouring' (known: epoll, io_uring, nio)");
    }

    @Test
    void clientNatOffNeedsANativeTransport() {
        // IP_TRANSPARENT (ip(7)) is what client-nat: false binds with; epoll and io_uring set it, NIO cannot.
        assertThat(Rejections.errors(LOADER, document("transport: nio\n", ", client-nat: false"))).containsExactly(
                "virtual-servers.ha.client-nat: client-nat: false needs IP_TRANSPARENT, which transport: nio cannot"
                        + " set; write transport: epoll or io_uring");
        assertThat(LOADER.parse(document("transport: io_uring\n", ", client-nat: false")).virtualServers()
                .get("ha").clientNat()).isFalse();
        assertThat(LOADER.parse(document("transport: epoll\n", ", client-nat: false")).virtualServers()
                .get("ha").clientNat()).isFalse();
    }

    @Test
    void aChangedTransportNeedsARestart() {
        var running = LOADER.parse(document("", ""));
        var next = LOADER.parse(document("transport: io_uring\n", ""));
        assertThat(ConfigDiff.between(running, next).needsRestart()).containsExactly("transport");
        assertThat(ConfigDiff.between(running, LOADER.parse(document("", ""))).needsRestart()).isEmpty();
    }

    @Test
    void nioIsAlwaysAvailableAndAnAbsentKeyNeverRefuses() {
        assertThat(Transports.problem(Optional.of(TransportKind.NIO))).isEmpty();
        assertThat(Transports.problem(Optional.empty())).isEmpty();
        assertThat(Transports.forNode(Optional.of(TransportKind.NIO))).isEqualTo(Transports.NIO);
    }

    @Test
    void aConfiguredTransportThisHostLacksIsRefusedNamingTheKeyAndTheReason() {
        // On this host each native transport is either there (then forNode gives it) or refused with the
        // key, the value and Netty's cause; the case of a host without io_uring is TransportRunJarIT's.
        for (TransportKind kind : new TransportKind[] {TransportKind.EPOLL, TransportKind.IO_URING}) {
            Transports t = Transports.of(kind);
            if (t.available()) {
                assertThat(Transports.forNode(Optional.of(kind))).isEqualTo(t);
            } else {
                assertThatThrownBy(() -> Transports.forNode(Optional.of(kind)))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageStartingWith("transport: " + kind.configName() + " is not available on this host (")
                        .hasMessageContaining(t.unavailabilityCause() == null ? "not Linux"
                                : t.unavailabilityCause().getMessage());
            }
        }
    }
}
