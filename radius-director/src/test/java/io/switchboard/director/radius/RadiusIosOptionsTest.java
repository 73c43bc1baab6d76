package io.switchboard.director.radius;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.IosSlbRecorder;
import io.switchboard.director.spi.IosSlbServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The RADIUS options of IOS SLB: the clients and their one shared secret, the Framed-IP purges, and
 * what {@code export-ios} writes back. The app's IOS examples run both through the whole import and
 * the YAML binder.
 */
class RadiusIosOptionsTest {

    private final RadiusIosOptions ios = new RadiusIosOptions();
    private final IosSlbRecorder recorder = new IosSlbRecorder();

    private IosSlbServer server(List<IosSlbServer.Client> clients, List<IosSlbServer.Purge> purges,
            Optional<String> secret) {
        return new IosSlbServer("AAA", "radius", 1812, recorder.line("virtual 10.0.0.2 udp 1812 service radius"),
                clients, Optional.empty(), List.of(), purges, secret);
    }

    @Test
    void withoutASecretTheVirtualLineAsksForOne() {
        assertThatThrownBy(() -> ios.fromIos(server(List.of(), List.of(), Optional.empty())))
                .hasMessage("'virtual 10.0.0.2 udp 1812 service radius' arg 0: virtual server AAA (service radius):"
                        + " Switchboard checks each RADIUS client's shared secret, which an IOS SLB configuration"
                        + " does not hold; give it with --radius-secret");
    }

    @Test
    void withoutClientLinesEveryAddressIsAClient() throws Exception {
        RadiusOptions options = (RadiusOptions) ios.fromIos(server(List.of(), List.of(), Optional.of("s")));

        assertThat(options.clients()).containsExactly(new RadiusOptions.Client(InetAddress.getByName("0.0.0.0"), 0,
                "s"));
        assertThat(options.framedIp()).isEqualTo(RadiusOptions.FramedIp.DEFAULT);
    }

    @Test
    void clientLinesAreTheClientsAndTheLastPurgeLineOfEachKindWins() throws Exception {
        var client = new IosSlbServer.Client(new Subnet(InetAddress.getByName("10.1.0.0"), 16),
                recorder.line("client 10.1.0.0 255.255.0.0"));
        var stopOff = new IosSlbServer.Purge(true, false, recorder.line("no purge radius framed-ip acct stop"));
        var stopOn = new IosSlbServer.Purge(true, true, recorder.line("purge radius framed-ip acct stop"));
        var onOffOff = new IosSlbServer.Purge(false, false, recorder.line("no purge radius framed-ip acct on-off"));

        RadiusOptions options = (RadiusOptions) ios.fromIos(server(List.of(client), List.of(stopOff, stopOn,
                onOffOff), Optional.of("s")));

        assertThat(options.clients()).containsExactly(new RadiusOptions.Client(InetAddress.getByName("10.1.0.0"), 16,
                "s"));
        assertThat(options.framedIp()).isEqualTo(new RadiusOptions.FramedIp(true, true, false));
        assertThat(recorder.translated).containsExactly(
                java.util.Map.entry("client 10.1.0.0 255.255.0.0", List.of("virtual-servers.AAA.clients[0]")),
                java.util.Map.entry("no purge radius framed-ip acct stop",
                        List.of("virtual-servers.AAA.radius.framed-ip.purge-on-stop")),
                java.util.Map.entry("purge radius framed-ip acct stop",
                        List.of("virtual-servers.AAA.radius.framed-ip.purge-on-stop")),
                java.util.Map.entry("no purge radius framed-ip acct on-off",
                        List.of("virtual-servers.AAA.radius.framed-ip.purge-on-accounting-on-off")));
    }

    @Test
    void theExportNamesTheClientsButNotTheCatchAllNorTheSecrets() throws Exception {
        RadiusOptions options = new RadiusOptions(List.of(
                new RadiusOptions.Client(InetAddress.getByName("10.1.0.0"), 16, "s"),
                new RadiusOptions.Client(InetAddress.getByName("0.0.0.0"), 0, "s")),
                new RadiusOptions.FramedIp(false, false, true), RadiusOptions.DEFAULT_STATE_IDLE, Optional.empty());
        var vs = new VirtualServerConfig("AAA", new Endpoint(InetAddress.getByName("10.0.0.2"), 1812), "radius", "AAA",
                Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 4096, true, options);

        ios.writeIos(options, vs, recorder.ios());

        assertThat(recorder.global).isEmpty();
        assertThat(recorder.mode).containsExactly(" client 10.1.0.0/16",
                " ! clients' shared secrets have no IOS form: give --radius-secret when importing",
                " ! radius.framed-ip.learn false has no IOS form", " no purge radius framed-ip acct stop");
    }
}
