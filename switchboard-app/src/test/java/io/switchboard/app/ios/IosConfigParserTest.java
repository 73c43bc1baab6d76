package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The IOS reading rules: modes, abbreviations, {@code no}, comments, indentation, errors. */
class IosConfigParserTest {

    private final IosConfigParser parser = new IosConfigParser();

    private static final String FARM = """
            ip slb serverfarm WEB
             real 10.1.1.1
              weight 3
              inservice
             real 10.1.1.2
              inservice
            """;

    @Test
    void realsNestInTheirFarmAndALineUnknownInAModeGoesToTheEnclosingOne() {
        IosConfig config = parser.parse(FARM);

        assertThat(config.commands()).hasSize(1);
        IosCommand farm = config.commands().get(0);
        assertThat(farm.keyword()).isEqualTo("serverfarm");
        assertThat(farm.arg(0)).isEqualTo("WEB");
        assertThat(farm.children()).extracting(IosCommand::keyword).containsExactly("real", "real");
        assertThat(farm.children().get(0).children()).extracting(IosCommand::keyword)
                .containsExactly("weight", "inservice");
        assertThat(farm.children().get(1).children()).extracting(IosCommand::keyword).containsExactly("inservice");
    }

    @Test
    void indentationDoesNotMatter() {
        String flat = FARM.lines().map(String::strip).reduce("", (a, b) -> a + b + "\n");
        String odd = FARM.lines().map(l -> "\t   " + l.strip()).reduce("", (a, b) -> a + b + "\n");

        assertThat(shape(parser.parse(flat))).isEqualTo(shape(parser.parse(FARM)));
        assertThat(shape(parser.parse(odd))).isEqualTo(shape(parser.parse(FARM)));
    }

    private static List<String> shape(IosConfig config) {
        return config.commands().stream().flatMap(c -> java.util.stream.Stream.concat(java.util.stream.Stream.of(c),
                c.children().stream().flatMap(r -> java.util.stream.Stream.concat(java.util.stream.Stream.of(r),
                        r.children().stream())))).map(c -> c.mode() + " " + c.keyword() + " " + c.args()
                .stream().map(IosWord::text).toList()).toList();
    }

    @Test
    void unambiguousAbbreviationsAreTheFullCommand() {
        IosConfig config = parser.parse("""
                ip slb serv WEB
                 rea 10.1.1.1
                  we 3
                  inserv
                ip slb vs HTTP
                 virt 10.0.0.1 tcp www
                 ser WEB
                """);

        assertThat(config.commands()).extracting(IosCommand::keyword).containsExactly("serverfarm", "vserver");
        assertThat(config.commands().get(0).children().get(0).children()).extracting(IosCommand::keyword)
                .containsExactly("weight", "inservice");
        assertThat(config.commands().get(1).children()).extracting(IosCommand::keyword)
                .containsExactly("virtual", "serverfarm");
    }

    @Test
    void anAmbiguousAbbreviationIsAnErrorListingTheCandidates() {
        IosSyntaxException e = catchThrowableOfType(IosSyntaxException.class,
                () -> parser.parse("ip slb serverfarm WEB\n real 10.1.1.1\n  re 3\n"));

        assertThat(e.getMessage()).isEqualTo("line 3, column 3: ambiguous command 're' in real server mode"
                + " (retry, reassign)");
    }

    @Test
    void noFormsAreKeptNegated() {
        IosConfig config = parser.parse(FARM + "  no inservice\n");

        IosCommand last = config.commands().get(0).children().get(1).children().get(1);
        assertThat(last.keyword()).isEqualTo("inservice");
        assertThat(last.negated()).isTrue();
    }

    @Test
    void commentsAndBlankLinesConfigureNothingAndOtherLinesAreSkippedWithWhy() {
        IosConfig config = parser.parse("""
                ! a comment
                hostname slb

                interface Vlan10
                 ip address 10.1.1.100 255.255.255.0
                mls ip slb purge global
                ip slb serverfarm WEB
                  ! comment inside a mode
                 real 10.1.1.1
                end
                """);

        assertThat(config.commands()).hasSize(1);
        assertThat(config.skipped()).extracting(IosConfig.Skipped::line).containsExactly(2, 4, 5, 6, 10);
        assertThat(config.skipped().get(3).why()).isEqualTo(IosConfigParser.HARDWARE);
        assertThat(config.skipped().get(0).why()).isEqualTo(IosConfigParser.OUTSIDE);
    }

    @Test
    void aGlobalCommandLeavesTheSlbModes() {
        IosConfig config = parser.parse(FARM + "interface Vlan20\n inservice\n");

        // The inservice after the interface belongs to the interface, not to the last real.
        assertThat(config.commands().get(0).children().get(1).children()).hasSize(1);
        assertThat(config.skipped()).extracting(IosConfig.Skipped::line).containsExactly(7, 8);
    }

    @Test
    void exitLeavesOneMode() {
        IosConfig config = parser.parse("ip slb serverfarm WEB\n real 10.1.1.1\n exit\n predictor leastconns\n");

        assertThat(config.commands().get(0).children()).extracting(IosCommand::keyword)
                .containsExactly("real", "predictor");
    }

    @Test
    void anUnknownIpSlbCommandNamesItsLineColumnAndTheNearestCommand() {
        IosSyntaxException e = catchThrowableOfType(IosSyntaxException.class,
                () -> parser.parse("hostname x\n\nip slb serverfram WEB\n"));

        assertThat(e.line()).isEqualTo(3);
        assertThat(e.column()).isEqualTo(8);
        assertThat(e.getMessage()).isEqualTo("line 3, column 8: unknown command 'serverfram' in ip slb; nearest"
                + " known command: serverfarm");
        assertThat(e.getStackTrace()).isEmpty();
    }

    @Test
    void anUnknownLineInsideAModeIsAnError() {
        IosSyntaxException e = catchThrowableOfType(IosSyntaxException.class,
                () -> parser.parse("ip slb vserver V\n virtual 10.0.0.1 udp 53\n stiky 30\n"));

        assertThat(e.getMessage()).isEqualTo("line 3, column 2: unknown command 'stiky' in virtual server mode;"
                + " nearest known command: sticky");
    }

    @Test
    void anUnknownArgumentIsAnErrorAtItsColumn() {
        IosSyntaxException e = catchThrowableOfType(IosSyntaxException.class, () -> new IosTranslator(
                IosTranslator.Options.NONE).translate("ip slb vserver V\n virtual 10.0.0.1 sctp 53\n serverfarm F\n"));

        assertThat(e.getMessage()).isEqualTo("line 2, column 19: expected tcp, udp, any, esp or gre");
    }

    @Test
    void abbreviatedArgumentsAreRead() {
        IosTranslation t = new IosTranslator(IosTranslator.Options.NONE).translate("""
                ip slb serverfarm F
                 real 10.1.1.1
                  inservice
                ip slb vserver V
                 virtual 10.0.0.1 udp 2123 serv gtp
                 serverfarm F
                 sticky gtp ims
                 inservice
                """);

        assertThat(t.config().virtualServers().get("V").service()).isEqualTo("gtp");
        assertThat(t.config().virtualServers().get("V").sticky()).isPresent();
    }
}
