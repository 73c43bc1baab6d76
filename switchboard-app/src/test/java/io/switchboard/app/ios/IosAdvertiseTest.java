package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.RouteHealthConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Route health as IOS does it (Cisco IOS SLB Command Reference, "advertise"): a virtual server is
 * announced when put in service unless {@code no advertise}; {@code advertise active} only while a real
 * serves. With {@code --route-health-hook} each becomes {@code advertise: inservice | active} (or none);
 * without, nothing is announced and the lines asking for it are unsupported.
 */
class IosAdvertiseTest {

    private static final Path HOOK = Path.of("/usr/local/sbin/switchboard-route");

    /** Line 4 starts DEFAULT, 8 ACTIVE (line 11 its advertise), 13 NEVER (16), 18 BARE (21). */
    private static final String IOS = """
            ip slb serverfarm F
             real 10.1.1.1
              inservice
            ip slb vserver DEFAULT
             virtual 10.0.0.1 udp 1812 service radius
             serverfarm F
             inservice
            ip slb vserver ACTIVE
             virtual 10.0.0.2 udp 1812 service radius
             serverfarm F
             advertise active
             inservice
            ip slb vserver NEVER
             virtual 10.0.0.3 udp 1812 service radius
             serverfarm F
             no advertise
             inservice
            ip slb vserver BARE
             virtual 10.0.0.4 udp 1812 service radius
             serverfarm F
             advertise
             no inservice
            """;

    private static IosTranslation translate(String ios, Optional<Path> hook) {
        return new IosTranslator(new IosTranslator.Options(Optional.of("s"), Map.of(), hook)).translate(ios);
    }

    private static IosReport.Entry line(IosTranslation t, int n) {
        return t.report().entry(n).orElseThrow();
    }

    @Test
    void withAHookTheDefaultIsInServiceAndAdvertiseActiveWhileARealServes() {
        IosTranslation t = translate(IOS, Optional.of(HOOK));

        RouteHealthConfig rh = t.config().routeHealth();
        assertThat(rh.hook()).hasValue(HOOK);
        assertThat(rh.advertise("DEFAULT")).hasValue(Advertise.INSERVICE);
        assertThat(rh.advertise("ACTIVE")).hasValue(Advertise.ACTIVE);
        assertThat(rh.advertise("NEVER")).isEmpty();
        assertThat(rh.advertise("BARE")).as("announced once put in service").hasValue(Advertise.INSERVICE);
        for (int n : new int[] {11, 16, 21}) {
            assertThat(line(t, n).outcome()).as("line " + n).isEqualTo(IosReport.Outcome.TRANSLATED);
        }
        assertThat(line(t, 11).detail()).contains("virtual-servers.ACTIVE.advertise", "route-health.hook");
        assertThat(t.report().exitCode()).as(t.report().text()).isZero();
    }

    @Test
    void theTranslationLoadsBackAndRoundTripsThroughExport() {
        IosTranslation t = translate(IOS, Optional.of(HOOK));
        String yaml = IosYamlWriter.write(t, "advertise.ios");

        assertThat(yaml).contains("advertise: inservice", "advertise: active", "hook: \"/usr/local/sbin/switchboard-route\"");
        assertThat(ConfigLoader.forInstalledPlugins().parse(yaml)).isEqualTo(t.config());
        String ios = IosExporter.export(t.config());
        assertThat(ios).contains(" advertise active\n", " no advertise\n");
        assertThat(translate(ios, Optional.of(HOOK)).config()).as(ios).isEqualTo(t.config());
    }

    @Test
    void withoutAHookNothingIsAnnouncedAndTheLinesAskingForItAreUnsupported() {
        IosTranslation t = translate(IOS, Optional.empty());

        assertThat(t.config().routeHealth()).isEqualTo(RouteHealthConfig.NONE);
        assertThat(line(t, 11).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(line(t, 11).detail()).contains("--route-health-hook");
        assertThat(line(t, 16).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 21).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
    }

    @Test
    void aLaterLineReplacesAnEarlierOneAndNoAdvertiseActiveIsTheDefaultAgain() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 advertise active
                 no advertise active
                """, Optional.of(HOOK));

        assertThat(t.config().routeHealth().advertise("V")).hasValue(Advertise.INSERVICE);
        assertThat(line(t, 6).detail()).contains("replaced by line 7");
    }

    @Test
    void anUnknownWordStopsTheImportAtItsLineAndColumn() {
        String ios = """
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 advertise sometimes
                """;
        assertThat(catchThrowableOfType(IosSyntaxException.class, () -> translate(ios, Optional.of(HOOK)))
                .getMessage()).isEqualTo("line 6, column 12: expected active or the end of the line");
        assertThat(catchThrowableOfType(IosSyntaxException.class,
                () -> translate(ios.replace("sometimes", "active now"), Optional.of(HOOK)))
                .getMessage()).isEqualTo("line 6, column 19: unexpected 'now'");
    }
}
