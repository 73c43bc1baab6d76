package io.switchboard.director.radius;

import static io.switchboard.director.radius.RadiusPluginTest.addr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.codec.DecodeException;
import io.switchboard.director.radius.radsec.RadsecOptions;
import io.switchboard.director.radius.radsec.RadsecTransport;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which client a request is from and the secret it signs with: a UDP sender by its address; a
 * connected RadSec peer by what identified it (its address, or its certificate's names and its
 * address), with the secret {@code radsec} (RFC 6614 §2.3) while connected, and across a reload.
 */
class RadiusClientsTest {

    private static final RadsecOptions.TlsFiles FILES = new RadsecOptions.TlsFiles(Path.of("c"), Path.of("k"),
            Path.of("ca"));
    private static final InetSocketAddress NAS1 = new InetSocketAddress(addr("10.1.0.5"), 40001);
    private static final InetSocketAddress NAS2 = new InetSocketAddress(addr("10.2.0.5"), 40002);

    private static RadiusClients clients(RadsecOptions.Identify identify) {
        return new RadiusClients(new RadiusOptions(List.of(
                new RadiusOptions.Client(addr("10.0.0.0"), 8, "wide", RadiusOptions.DEFAULT_REQUIRE,
                        RadiusOptions.DEFAULT_LIMIT_PROXY_STATE, Optional.of("nas2.test")),
                new RadiusOptions.Client(addr("10.1.0.0"), 16, "narrow", RadiusOptions.DEFAULT_REQUIRE,
                        RadiusOptions.DEFAULT_LIMIT_PROXY_STATE, Optional.of("nas1.test"))))
                .withRadsec(new RadsecOptions(true, Optional.empty(), identify, FILES)));
    }

    private static String secret(RadiusClients clients, InetSocketAddress sender) throws DecodeException {
        return new String(clients.secretOf(sender), StandardCharsets.UTF_8);
    }

    @Test
    void aUdpSenderIsItsLongestPrefixWithItsOwnSecret() throws DecodeException {
        RadiusClients clients = clients(RadsecOptions.Identify.ADDRESS);
        assertThat(secret(clients, NAS1)).isEqualTo("narrow");
        assertThat(secret(clients, NAS2)).isEqualTo("wide");
        assertThatThrownBy(() -> clients.of(new InetSocketAddress(addr("192.0.2.1"), 1)))
                .isInstanceOf(DecodeException.class).hasMessageContaining("no client entry");
    }

    @Test
    void aConnectedPeerSignsWithRadsecUntilItLeaves() throws DecodeException {
        RadiusClients clients = clients(RadsecOptions.Identify.ADDRESS);
        assertThat(clients.connected(NAS1, List.of("whatever"))).startsWith("10.1.0.0/16");
        assertThat(secret(clients, NAS1)).isEqualTo(RadsecTransport.SECRET);
        InetSocketAddress sameHostOtherPort = new InetSocketAddress(NAS1.getAddress(), 40009);
        assertThat(secret(clients, sameHostOtherPort)).as("a datagram from the NAS's host").isEqualTo("narrow");
        clients.closed(NAS1);
        assertThat(secret(clients, NAS1)).isEqualTo("narrow");
    }

    @Test
    void byCertificateThePeerIsTheClientWhoseNameItCarriesWithinItsSubnet() throws DecodeException {
        RadiusClients clients = clients(RadsecOptions.Identify.CERTIFICATE);
        // From 10.1.0.5 with nas2.test's certificate: the /8 entry (nas2.test), not the /16 one.
        assertThat(clients.connected(NAS1, List.of("nas2.test"))).startsWith("10.0.0.0/8");
        assertThat(clients.of(NAS1)).isEqualTo(1); // sorted longest prefix first: the /8 is second
        // nas1.test is the 10.1.0.0/16 client: from 10.2.0.5 it is none.
        assertThat(clients.connected(NAS2, List.of("nas1.test"))).isNull();
        assertThat(clients.connected(NAS2, List.of())).isNull();
    }

    @Test
    void aReloadKeepsThePeersConnectedAndLearnsWhenTheyLeave() throws DecodeException {
        RadiusClients before = clients(RadsecOptions.Identify.CERTIFICATE);
        before.connected(NAS1, List.of("nas1.test"));
        RadiusClients after = clients(RadsecOptions.Identify.CERTIFICATE);
        after.takeOver(before);
        assertThat(secret(after, NAS1)).isEqualTo(RadsecTransport.SECRET);
        before.closed(NAS1); // the connection's handler belongs to the old virtual server
        assertThat(secret(after, NAS1)).isEqualTo("narrow");
    }

    @Test
    void withoutARadsecListenerNoPeerIsAccepted() {
        RadiusClients clients = new RadiusClients(new RadiusOptions(List.of(
                new RadiusOptions.Client(addr("10.0.0.0"), 8, "wide"))));
        assertThat(clients.connected(NAS1, List.of())).isNull();
    }
}
