package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.gtp.GtpModule;
import io.switchboard.director.gtp.GtpOptions;
import io.switchboard.director.radius.RadiusOptions;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What single IOS lines become: defaults made explicit, ports, splits, reports of what is lacking. */
class IosTranslatorTest {

    private static IosTranslation translate(String ios) {
        return new IosTranslator(new IosTranslator.Options(Optional.of("s"))).translate(ios);
    }

    /** Address literals (no lookup). */
    private static final class TestIp {
        static java.net.InetAddress of(String literal) {
            try {
                return java.net.InetAddress.getByName(literal);
            } catch (java.net.UnknownHostException e) {
                throw new IllegalArgumentException(e);
            }
        }
    }

    private static IosReport.Entry line(IosTranslation t, int n) {
        return t.report().entry(n).orElseThrow();
    }

    @Test
    void withoutInserviceRealsAndVirtualServersAreOutOfServiceAndWeightsAreEight() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                 real 10.1.1.2
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                """);

        FarmConfig farm = t.config().farms().get("F");
        assertThat(farm.reals()).extracting(RealConfig::inService).containsExactly(false, true);
        assertThat(farm.reals()).extracting(RealConfig::weight).containsExactly(8, 8);
        assertThat(farm.reals()).extracting(RealConfig::port).containsExactly(53, 53);
        VirtualServerConfig vs = t.config().virtualServers().get("V");
        assertThat(vs.inService()).isFalse();
        assertThat(vs.idle()).as("IOS idle default 3600 s").isEqualTo(Duration.ofHours(1));
    }

    @Test
    void aFarmUsedOnTwoPortsByRealsWithoutPortsBecomesOneFarmPerPort() {
        IosTranslation t = translate("""
                ip slb serverfarm AAA
                 real 10.1.1.1
                  inservice
                ip slb vserver AUTH
                 virtual 10.0.0.1 udp 1812 service radius
                 serverfarm AAA
                ip slb vserver ACCT
                 virtual 10.0.0.1 udp 1813 service radius
                 serverfarm AAA
                """);

        assertThat(t.config().farms()).containsOnlyKeys("AAA-1812", "AAA-1813");
        assertThat(t.config().farms().get("AAA-1813").reals().get(0).port()).isEqualTo(1813);
        assertThat(t.config().virtualServers().get("ACCT").farm()).isEqualTo("AAA-1813");
        assertThat(line(t, 2).detail()).isEqualTo("farms.AAA-1812.reals[0].address, farms.AAA-1813.reals[0].address");
        RadiusOptions options = t.config().virtualServers().get("AUTH").options(RadiusOptions.class);
        assertThat(options.clients()).singleElement().satisfies(c -> {
            assertThat(c.prefixBits()).isZero();
            assertThat(c.secret()).isEqualTo("s");
        });
    }

    @Test
    void realsThatDisagreeOnFailureDetectionKeepTheFirstAndTheOthersAreReported() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  faildetect numconns 4
                  inservice
                 real 10.1.1.2
                  faildetect numconns 6 numclients 3
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                """);

        assertThat(t.config().farms().get("F").failure().numconns()).isEqualTo(4);
        assertThat(t.config().farms().get("F").failure().numclients()).isEqualTo(2);
        assertThat(line(t, 3).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(line(t, 6).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(line(t, 6).detail()).startsWith("per-real failure detection");
        assertThat(t.report().exitCode()).isEqualTo(3);
    }

    @Test
    void gtpPortsVersionsStickyAndApnMaps() {
        IosTranslation t = translate("""
                ip slb serverfarm GGSN
                 real 10.1.1.1
                  inservice
                ip slb serverfarm IMS
                 real 10.1.2.1
                  inservice
                ip slb map 1 gtp
                 apn ims*
                ip slb vserver V0
                 virtual 10.0.0.1 udp 3386 service gtp
                 serverfarm GGSN
                 inservice
                ip slb vserver V1
                 virtual 10.0.0.1 udp 0 service gtp-inspect
                 serverfarm GGSN
                 serverfarm IMS map 1 priority 5
                 sticky gtp imsi group 3
                 idle gtp imsi 900
                 inservice
                """);

        VirtualServerConfig v0 = t.config().virtualServers().get("V0");
        assertThat(v0.listen().port()).isEqualTo(3386);
        assertThat(v0.options(GtpOptions.class).versions()).containsExactly(0);
        VirtualServerConfig v1 = t.config().virtualServers().get("V1");
        assertThat(v1.listen().port()).isEqualTo(2123);
        assertThat(v1.options(GtpOptions.class).apnMaps()).containsExactly(new GtpOptions.ApnMap("ims*", "IMS", 5));
        assertThat(v1.sticky().orElseThrow().keys()).containsExactly(GtpModule.IMSI);
        assertThat(v1.sticky().orElseThrow().idle()).isEqualTo(Duration.ofMinutes(15));
        assertThat(v1.sticky().orElseThrow().group()).contains("3");
        assertThat(line(t, 18).detail()).isEqualTo("virtual-servers.V1.sticky.idle");
        assertThat(t.report().exitCode()).isZero();
    }

    @Test
    void aGtpServerWithoutOptionsGetsNone() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                """);

        assertThat(t.config().virtualServers().get("V").options()).isSameAs(ServiceOptions.NONE);
    }

    @Test
    void whatSwitchboardLacksIsNamedAndWhatItDoesAnywayIsImplied() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 nat server
                 farm-weight 200
                 real 10.1.1.1
                  maxclients 100
                  rate 5
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 access GigabitEthernet1/1
                 replicate casa 10.0.0.1 10.0.0.2 4231
                 advertise active
                 inservice
                """);

        assertThat(line(t, 2).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 3).detail()).contains("KAL-AP");
        assertThat(line(t, 11).detail()).contains("not a Linux interface name");
        assertThat(line(t, 12).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 13).detail()).contains("route-health.hook");
        assertThat(t.report().count(IosReport.Outcome.UNSUPPORTED)).isEqualTo(3);
    }

    @Test
    void rateMaxclientsFaildetectInbandAndFailactionPurgeAreTranslated() {
        // Cisco IOS SLB Command Reference: "rate" and "maxclients" (real server), "faildetect inband
        // (real server)", "failaction (server farm)".
        IosTranslation t = translate("""
                ip slb serverfarm F
                 failaction purge
                 real 10.1.1.1
                  rate 50
                  maxclients 1000
                  no faildetect inband
                  inservice
                 real 10.1.1.2
                  no faildetect inband
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                 inservice
                """);

        FarmConfig farm = t.config().farms().get("F");
        assertThat(farm.failure().purge()).isTrue();
        assertThat(farm.failure().inband()).isFalse();
        RealConfig first = farm.reals().get(0);
        assertThat(first.limits().rate()).hasValue(50);
        assertThat(first.limits().maxclients()).hasValue(1000);
        assertThat(farm.reals().get(1).limits()).isEqualTo(io.switchboard.director.config.RealLimits.NONE);
        for (int n : new int[] {2, 4, 5, 6, 9}) {
            assertThat(line(t, n).outcome()).as("line " + n).isEqualTo(IosReport.Outcome.TRANSLATED);
        }
        assertThat(line(t, 2).detail()).contains("farms.F.failure.purge");
        assertThat(line(t, 4).detail()).contains("farms.F.reals[0].rate");
        assertThat(line(t, 5).detail()).contains("farms.F.reals[0].maxclients");
        assertThat(line(t, 6).detail()).contains("farms.F.failure.inband");
        assertThat(t.report().count(IosReport.Outcome.UNSUPPORTED)).isZero();
    }

    @Test
    void realsThatDisagreeOnInBandDetectionKeepTheFirstRealsAndTheOtherIsReported() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  no faildetect inband
                  inservice
                 real 10.1.1.2
                  faildetect inband
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                """);

        assertThat(t.config().farms().get("F").failure().inband()).isFalse();
        assertThat(line(t, 6).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
    }

    @Test
    void failactionOtherThanPurgeIsNamed() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 failaction radius reassign
                 real 10.1.1.1
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                """);

        assertThat(line(t, 2).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(t.config().farms().get("F").failure().purge()).isFalse();
    }

    @Test
    void noNatClientLetsTheFarmsDatagramServersShowTheClientsAndStaticNatIsTranslated() {
        // IOS SLB guide, "Configuring Server Farms": without client NAT the reals see the clients;
        // "ip slb static" NATs what the reals open themselves (static-nat, docs/transparent.md).
        IosTranslation t = translate("""
                ip slb serverfarm HA
                 no nat client
                 real 10.1.1.1
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 434 service ipmobile
                 serverfarm HA
                 inservice
                ip slb vserver W
                 virtual 10.0.0.2 udp 53
                 serverfarm F
                ip slb serverfarm F
                 real 10.1.1.2
                ip slb static nat virtual
                 real 10.1.1.1
                """);

        assertThat(t.config().virtualServers().get("V").clientNat()).isFalse();
        assertThat(t.config().virtualServers().get("W").clientNat()).isTrue();
        assertThat(line(t, 2).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(line(t, 2).detail()).isEqualTo("virtual-servers.V.client-nat");
        assertThat(line(t, 14).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(line(t, 15).detail()).isEqualTo("static-nat.entries[0].reals[0].address");
        assertThat(t.config().staticNat().entries().get(0).reals().get(0).translated())
                .contains(TestIp.of("10.0.0.1"));
    }

    @Test
    void staticNatBlocksBecomeEntriesAndStickyIsUnsupported() {
        // IOS SLB guide, "Configuring Static NAT": ip slb static {drop | nat {virtual | ADDR}
        // [per-packet | sticky]} with real ADDR [PORT] lines.
        IosTranslation t = translate("""
                ip slb serverfarm DNS
                 real 10.1.1.1
                  inservice
                 real 10.1.1.2
                  inservice
                ip slb vserver V
                 virtual 10.0.0.53 udp 53
                 serverfarm DNS
                 inservice
                ip slb static nat virtual
                 real 10.1.1.1
                ip slb static nat 192.0.2.9 per-packet
                 real 10.1.1.2 53
                ip slb static drop
                 real 10.1.1.3
                 no real 10.1.1.4
                ip slb static nat virtual sticky
                 real 10.1.1.5
                """);

        io.switchboard.director.config.StaticNatConfig nat = t.config().staticNat();
        assertThat(nat.entries()).hasSize(3);
        assertThat(nat.entries().get(0).reals().get(0).translated()).contains(TestIp.of("10.0.0.53"));
        assertThat(nat.entries().get(1).address()).contains(TestIp.of("192.0.2.9"));
        assertThat(nat.entries().get(1).reals().get(0).port()).isEqualTo(53);
        assertThat(nat.entries().get(2).action())
                .isEqualTo(io.switchboard.director.config.StaticNatConfig.Action.DROP);
        assertThat(line(t, 10).detail()).isEqualTo("static-nat.entries[0].action, static-nat.entries[0].address");
        assertThat(line(t, 13).detail())
                .isEqualTo("static-nat.entries[1].reals[0].address, static-nat.entries[1].reals[0].port");
        assertThat(line(t, 14).detail()).isEqualTo("static-nat.entries[2].action");
        assertThat(line(t, 16).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 17).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(line(t, 18).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        // What import-ios writes loads back into the same model (the loader resolves virtual alike).
        String yaml = IosYamlWriter.write(t, "static.ios");
        assertThat(yaml).contains("static-nat:").contains("address: virtual").contains("address: 192.0.2.9");
        assertThat(io.switchboard.app.config.ConfigLoader.forInstalledPlugins().parse(yaml).staticNat())
                .isEqualTo(nat);
        // export-ios writes the blocks back; translated again they are the same entries.
        assertThat(translate(IosExporter.export(t.config())).config().staticNat()).isEqualTo(nat);
    }

    @Test
    void dfpAgentsPasswordAndBindIdsBecomeTheDfpSection() {
        IosTranslation t = translate("""
                ip slb dfp password 0 s3cret 180
                 agent 10.1.1.1 2221 30 5 60
                 agent 10.1.1.2 2221
                ip slb serverfarm F
                 bindid 7
                 real 10.1.1.1
                  inservice
                ip slb serverfarm UNUSED
                 bindid 9
                 real 10.1.1.3
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 service gtp
                 serverfarm F
                 inservice
                """);

        DfpConfig dfp = t.config().dfp();
        assertThat(dfp.password()).contains("s3cret");
        assertThat(dfp.agents()).containsExactly(
                new DfpConfig.Agent(TestIp.of("10.1.1.1"), 2221, Duration.ofSeconds(30), 5, Duration.ofSeconds(60)),
                new DfpConfig.Agent(TestIp.of("10.1.1.2"), 2221, Duration.ZERO, 0, Duration.ofSeconds(180)));
        assertThat(dfp.bindIds()).containsExactly(java.util.Map.entry("F", 7));
        assertThat(line(t, 1).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        assertThat(line(t, 2).detail()).contains("dfp.agents[0].retry-interval");
        assertThat(line(t, 5).detail()).isEqualTo("dfp.bind-ids.F");
        assertThat(line(t, 9).outcome()).isEqualTo(IosReport.Outcome.IGNORED);
    }

    @Test
    void anObscuredDfpPasswordIsUnsupportedAndAnAgentWithoutAPortIsAnError() {
        IosTranslation t = translate("""
                ip slb dfp
                 password 7 0822455D0A16
                 agent 10.1.1.1 2221
                ip slb serverfarm F
                 real 10.1.1.1
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                """);
        assertThat(line(t, 2).outcome()).isEqualTo(IosReport.Outcome.UNSUPPORTED);
        assertThat(t.config().dfp().password()).isEmpty();
        assertThat(t.config().dfp().agents()).hasSize(1);

        IosSyntaxException noPort = catchThrowableOfType(IosSyntaxException.class, () -> translate("""
                ip slb dfp
                 agent 10.1.1.1
                """));
        assertThat(noPort.getMessage()).contains("line 2");
    }

    @Test
    void aFarmNamingAnUnknownProbeOrAVirtualServerWithoutAFarmIsAnErrorAtItsLine() {
        IosSyntaxException probe = catchThrowableOfType(IosSyntaxException.class, () -> translate("""
                ip slb serverfarm F
                 probe NOPE
                 real 10.1.1.1
                """));
        IosSyntaxException farm = catchThrowableOfType(IosSyntaxException.class, () -> translate("""
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm MISSING
                """));

        assertThat(probe.getMessage()).isEqualTo("line 2, column 8: no ip slb probe named NOPE");
        assertThat(farm.getMessage()).isEqualTo("line 3, column 13: no ip slb serverfarm named MISSING");
    }

    @Test
    void tcpTimersClientsAndSynGuard() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1 8080
                  reassign 4
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 tcp https
                 client 10.4.0.0 255.255.0.0
                 serverfarm F
                 sticky 30 netmask 255.255.255.0
                 idle 600
                 delay 3
                 synguard 50
                 inservice
                """);

        VirtualServerConfig vs = t.config().virtualServers().get("V");
        assertThat(vs.listen().port()).isEqualTo(443);
        var tcp = vs.options(io.switchboard.l4.tcp.TcpOptions.class);
        assertThat(tcp.reassign()).isEqualTo(4);
        assertThat(tcp.idle()).isEqualTo(Duration.ofMinutes(10));
        assertThat(tcp.delay()).isEqualTo(Duration.ofSeconds(3));
        assertThat(tcp.synLimit()).hasValue(50);
        assertThat(tcp.synInterval()).as("IOS synguard interval 100 ms").isEqualTo(Duration.ofMillis(100));
        assertThat(tcp.clients()).singleElement().hasToString("10.4.0.0/16");
        assertThat(vs.sticky().orElseThrow().netmaskBits()).hasValue(24);
        assertThat(t.config().farms().get("F").reals().get(0).port()).isEqualTo(8080);
    }

    @Test
    void aSecondLineForTheSameValueReplacesTheFirstAndBothAreReported() {
        IosTranslation t = translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  weight 3
                  weight 5
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 53
                 serverfarm F
                 sticky 30
                 sticky 30
                 idle 60
                 idle 90
                """);

        assertThat(t.config().farms().get("F").reals().get(0).weight()).isEqualTo(5);
        assertThat(line(t, 3).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
        assertThat(line(t, 3).detail()).isEqualTo("replaced by line 4 (IOS keeps the last)");
        assertThat(line(t, 4).detail()).isEqualTo("farms.F.reals[0].weight");
        assertThat(t.config().virtualServers().get("V").sticky().orElseThrow().keys()).hasSize(1);
        assertThat(line(t, 10).detail()).startsWith("repeats an earlier sticky line");
        assertThat(t.config().virtualServers().get("V").idle()).isEqualTo(Duration.ofSeconds(90));
        assertThat(line(t, 11).outcome()).isEqualTo(IosReport.Outcome.IMPLIED);
    }

    @Test
    void aLocalAckKeyIsTheRadiusSecretWhenNoneIsGivenAndTheDirectorAcknowledgesAccounting() {
        IosTranslation t = new IosTranslator(IosTranslator.Options.NONE).translate("""
                ip slb serverfarm AAA
                 real 10.1.1.1
                ip slb vserver ACCT
                 virtual 10.0.0.1 udp 1813 service radius
                 serverfarm AAA
                 radius acct local-ack key k3y
                """);

        assertThat(t.config().virtualServers().get("ACCT").options(RadiusOptions.class).clients())
                .extracting(RadiusOptions.Client::secret).containsExactly("k3y");
        assertThat(t.config().virtualServers().get("ACCT").options(RadiusOptions.class).accountingLocalAck()).isTrue();
        assertThat(line(t, 6).outcome()).isEqualTo(IosReport.Outcome.TRANSLATED);
        // Written as the YAML key, citing its line, and loaded back to the same configuration.
        String yaml = IosYamlWriter.write(t, "local-ack");
        assertThat(yaml).containsPattern("accounting-local-ack: true +# line 6: radius acct local-ack key k3y");
        assertThat(new io.switchboard.app.config.ConfigLoader(io.switchboard.app.Services.discover().available())
                .parse(yaml)).isEqualTo(t.config());
    }
}
