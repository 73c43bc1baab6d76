package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.spi.IosSlbRecorder;
import io.switchboard.director.spi.IosSlbServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The GTP options of IOS SLB: what {@code import-ios} makes of a GTP virtual server's port,
 * {@code gtp notification cac} and map lines, and what {@code export-ios} writes back. The app's
 * IOS examples run both through the whole import and the YAML binder.
 */
class GtpIosOptionsTest {

    private final GtpIosOptions ios = new GtpIosOptions();
    private final IosSlbRecorder recorder = new IosSlbRecorder();

    private IosSlbServer server(int port, Optional<IosSlbServer.Cac> cac, List<IosSlbServer.MapUse> uses) {
        return new IosSlbServer("GGSN", "gtp-inspect", port, recorder.line("virtual 10.0.0.1 udp 0 service gtp"),
                List.of(), cac, uses, List.of(), Optional.empty());
    }

    @Test
    void aServerThatSaysNothingOfGtpHasNoOptions() {
        assertThat(ios.fromIos(server(2123, Optional.empty(), List.of()))).isSameAs(ServiceOptions.NONE);
        assertThat(recorder.translated).isEmpty();
    }

    @Test
    void thePortSaysTheVersionCacTheReassignAndEachApnOfAMapIsAnApnMap() {
        var cac = new IosSlbServer.Cac(3, recorder.line("gtp notification cac 3"));
        var ims = new IosSlbServer.MapUse("1", "IMS", 5, Optional.of(List.of("ims", "*.ims")),
                recorder.line("serverfarm IMS map 1 priority 5"));
        var empty = new IosSlbServer.MapUse("2", "NONE", 9, Optional.of(List.of()),
                recorder.line("serverfarm NONE map 2 priority 9"));

        GtpOptions options = (GtpOptions) ios.fromIos(server(3386, Optional.of(cac), List.of(ims, empty)));

        assertThat(options.versions()).isEqualTo(Set.of(0));
        assertThat(options.reassign()).isEqualTo(3);
        assertThat(options.apnMaps()).containsExactly(new GtpOptions.ApnMap("ims", "IMS", 5),
                new GtpOptions.ApnMap("*.ims", "IMS", 5));
        assertThat(recorder.translated).containsExactly(
                java.util.Map.entry("gtp notification cac 3", List.of("virtual-servers.GGSN.gtp.reassign")),
                java.util.Map.entry("serverfarm IMS map 1 priority 5", List.of("virtual-servers.GGSN.gtp.apn-maps[0]",
                        "virtual-servers.GGSN.gtp.apn-maps[1]")),
                java.util.Map.entry("serverfarm NONE map 2 priority 9", List.of("virtual-servers.GGSN.gtp.apn-maps")));
    }

    @Test
    void aMapThatIsNotThereIsTheServerfarmLinesError() {
        var missing = new IosSlbServer.MapUse("7", "IMS", 1, Optional.empty(),
                recorder.line("serverfarm IMS map 7 priority 1"));

        assertThatThrownBy(() -> ios.fromIos(server(2123, Optional.empty(), List.of(missing))))
                .hasMessage("'serverfarm IMS map 7 priority 1' arg 2: no ip slb map 7 gtp");
    }

    @Test
    void eachApnMapIsExportedAsAMapBeforeTheServerAndAServerfarmLineInIt() throws Exception {
        GtpOptions d = GtpOptions.DEFAULT;
        GtpOptions options = new GtpOptions(Set.of(0), 4, d.resourceCausesV1(), d.resourceCausesV2(),
                d.carrierCodes(), d.v0TidOrder(), d.recovery(), d.recoveryFile(), d.unstickOnDelete(), d.sessionIdle(),
                d.directorAddresses(), List.of(new GtpOptions.ApnMap("ims", "IMS", 5),
                        new GtpOptions.ApnMap("web", "WEB", 6)));
        var vs = new VirtualServerConfig("GGSN", new Endpoint(InetAddress.getByName("10.0.0.1"), 2123), "gtp", "GPRS",
                Optional.empty(), Duration.ofSeconds(2), Duration.ofMinutes(1), 1500, true, options);

        ios.writeIos(options, vs, recorder.ios());

        assertThat(recorder.global).containsExactly("ip slb map 1 gtp", " apn ims", "ip slb map 2 gtp", " apn web");
        assertThat(recorder.mode).containsExactly(" serverfarm IMS map 1 priority 5",
                " serverfarm WEB map 2 priority 6", " gtp notification cac 4",
                " ! gtp.versions [0] on a port other than 3386 has no IOS form");
    }
}
