package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The IOS idle timers per protocol (Cisco IOS SLB Command Reference, "idle (virtual server)"): each
 * {@code idle PROTOCOL request S} is the virtual server's {@code response-timeout}, each binding timer
 * ({@code idle gtp imsi}, {@code idle radius framed-ip}, {@code idle asn msid}) its {@code sticky.idle};
 * a timer of another protocol than the virtual server's is named as unsupported, a bad value stops the
 * import at its line.
 */
class IosIdleTimersTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();

    /** Lines 1-3 the farm; each virtual server five lines: vserver, virtual, serverfarm, timers. */
    private static final String IOS = """
            ip slb serverfarm F
             real 10.1.1.1
              inservice
            ip slb vserver GTP
             virtual 10.0.0.1 udp 2123 service gtp
             serverfarm F
             sticky gtp imsi
             idle gtp imsi 900
             idle gtp request 30
             inservice
            ip slb vserver AAA
             virtual 10.0.0.2 udp 1812 service radius
             serverfarm F
             sticky radius framed-ip
             idle radius framed-ip 7200
             idle radius req 20
             inservice
            ip slb vserver ASN
             virtual 10.0.0.3 udp 2231 service asn
             serverfarm F
             sticky asn msid
             idle asn msid 1800
             idle asn request 10
             inservice
            ip slb vserver HA
             virtual 10.0.0.4 udp 434 service ipmobile
             serverfarm F
             idle ipmobile request 45
             inservice
            """;

    private static IosTranslation translate(String ios) {
        return new IosTranslator(new IosTranslator.Options(Optional.of("s"))).translate(ios);
    }

    private static IosReport.Entry line(IosTranslation t, int n) {
        return t.report().entry(n).orElseThrow();
    }

    @Test
    void eachRequestTimerIsTheResponseTimeoutAndEachBindingTimerTheStickyIdle() {
        IosTranslation t = translate(IOS);

        var servers = t.config().virtualServers();
        assertThat(servers.get("GTP").responseTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(servers.get("AAA").responseTimeout()).as("abbreviated 'req'").isEqualTo(Duration.ofSeconds(20));
        assertThat(servers.get("ASN").responseTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(servers.get("HA").responseTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(servers.get("GTP").sticky().orElseThrow().idle()).isEqualTo(Duration.ofMinutes(15));
        assertThat(servers.get("AAA").sticky().orElseThrow().idle()).isEqualTo(Duration.ofHours(2));
        assertThat(servers.get("ASN").sticky().orElseThrow().idle()).isEqualTo(Duration.ofMinutes(30));

        assertThat(line(t, 9).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(line(t, 9).detail()).isEqualTo("virtual-servers.GTP.response-timeout");
        assertThat(line(t, 8).detail()).isEqualTo("virtual-servers.GTP.sticky.idle");
        assertThat(line(t, 15).detail()).isEqualTo("virtual-servers.AAA.sticky.idle");
        assertThat(line(t, 16).detail()).isEqualTo("virtual-servers.AAA.response-timeout");
        assertThat(line(t, 22).detail()).isEqualTo("virtual-servers.ASN.sticky.idle");
        assertThat(line(t, 23).detail()).isEqualTo("virtual-servers.ASN.response-timeout");
        assertThat(line(t, 28).detail()).isEqualTo("virtual-servers.HA.response-timeout");
        assertThat(t.report().exitCode()).as(t.report().text()).isZero();
    }

    @Test
    void theTranslationLoadsBackAndExportsTheTimersAgain() {
        IosTranslation t = translate(IOS);

        SwitchboardConfig loaded = LOADER.parse(IosYamlWriter.write(t, "timers.ios"));
        assertThat(loaded).isEqualTo(t.config());

        String ios = IosExporter.export(t.config());
        assertThat(ios).contains(" idle gtp request 30\n", " idle radius request 20\n", " idle asn request 10\n",
                " idle ipmobile request 45\n", " idle gtp imsi 900\n", " idle radius framed-ip 7200\n",
                " idle asn msid 1800\n");
        assertThat(translate(ios).config()).isEqualTo(t.config());
    }

    @Test
    void aTimerOfAnotherProtocolIsUnsupportedAndNamesTheServersOwn() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                 idle radius request 20
                 idle asn msid 60
                 inservice
                """);

        assertThat(line(t, 7).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(line(t, 7).detail()).contains("'idle radius request' on a gtp virtual server")
                .contains("'idle gtp request'");
        assertThat(line(t, 8).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(line(t, 8).detail()).contains("'idle gtp imsi'");
        VirtualServerConfig vs = t.config().virtualServers().get("V");
        assertThat(vs.responseTimeout()).isEqualTo(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT);
    }

    @Test
    void aLaterTimerReplacesAnEarlierOne() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 1812 service radius
                 serverfarm F
                 idle radius request 20
                 idle radius request 40
                """);

        assertThat(t.config().virtualServers().get("V").responseTimeout()).isEqualTo(Duration.ofSeconds(40));
        assertThat(line(t, 6).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 6).detail()).contains("replaced by line 7");
    }

    @Test
    void aBadDurationStopsTheImportAtItsLineAndColumn() {
        String head = """
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                """;
        assertThat(catchThrowableOfType(IosSyntaxException.class, () -> translate(head + " idle gtp request 0\n"))
                .getMessage()).startsWith("line 6, column 19: '0' must be 1..");
        assertThat(catchThrowableOfType(IosSyntaxException.class, () -> translate(head + " idle gtp request\n"))
                .getMessage()).startsWith("line 6").contains("missing");
        assertThat(catchThrowableOfType(IosSyntaxException.class, () -> translate(head + " idle gtp request soon\n"))
                .getMessage()).startsWith("line 6, column 19:");
        assertThat(catchThrowableOfType(IosSyntaxException.class, () -> translate(head + " idle gtp imsi 60 later\n"))
                .getMessage()).startsWith("line 6, column 19: unexpected 'later'");
    }

    @Test
    void inYamlABadTimeoutIsRefusedByItsPath() {
        io.switchboard.app.config.ConfigException e = catchThrowableOfType(
                io.switchboard.app.config.ConfigException.class, () -> LOADER.parse("""
                farms:
                  F:
                    reals: [{ address: 127.0.0.2, port: 2123 }]
                virtual-servers:
                  V:
                    listen: 10.0.0.1:2123
                    service: gtp
                    farm: F
                    response-timeout: 0s
                    sticky: { key: imsi, idle: -5s }
                """));
        assertThat(e.errors()).extracting(Object::toString)
                .anySatisfy(m -> assertThat(m).startsWith("virtual-servers.V.response-timeout:"))
                .anySatisfy(m -> assertThat(m).startsWith("virtual-servers.V.sticky.idle:"));
    }
}
