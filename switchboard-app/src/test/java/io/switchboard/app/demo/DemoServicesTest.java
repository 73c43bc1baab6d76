package io.switchboard.app.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.SwitchboardCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What {@code demo --service} offers: udp, and the services whose modules register a scenario. */
class DemoServicesTest {

    @Test
    void offersUdpThenEveryRegisteredScenarioAndNothingElse() {
        DemoServices services = new DemoServices();

        assertThat(services).containsExactly("udp", "gtp-inspect");
        assertThat(services.offers("gtp-inspect")).isTrue();
        assertThat(services.offers("radius")).isFalse();
        assertThat(services.scenario("udp")).isEmpty();
        assertThat(services.scenario("gtp-inspect")).hasValueSatisfying(s -> assertThat(s.service())
                .isEqualTo("gtp-inspect"));
        assertThat(services.listed()).isEqualTo("udp or gtp-inspect");
    }

    @Test
    void theHelpOfServiceListsWhatIsRegistered() {
        StringWriter help = new StringWriter();
        CommandLine demo = new CommandLine(new SwitchboardCommand()).getSubcommands().get("demo");
        demo.usage(new PrintWriter(help, true));

        assertThat(help.toString().replaceAll("\\s+", " "))
                .contains("what the director serves, one of udp, gtp-inspect:");
    }
}
