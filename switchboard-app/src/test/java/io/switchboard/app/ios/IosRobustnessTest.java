package io.switchboard.app.ios;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bad IOS text never crashes the import: each example, mutated line by line (a word dropped,
 * doubled, replaced by a number, a keyword or garbage; a line cut short or moved), is translated
 * or refused with an {@link IosSyntaxException} naming a line, and a translation either loads or is
 * refused by the loader with its paths. Seeded, so a failure repeats.
 */
class IosRobustnessTest {

    private static final ConfigLoader LOADER = ConfigLoader.forInstalledPlugins();
    private static final String[] WORDS = {"0", "65536", "-1", "999999999999", "10.1.1.1", "255.255.0.255", "no",
        "ip", "slb", "real", "virtual", "udp", "tcp", "service", "gtp", "radius", "backup", "group", "netmask",
        "map", "priority", "data", "zz", "!", "inservice", "", "exit", "end"};

    @ParameterizedTest
    @ValueSource(strings = {"basic.ios", "gtp.ios", "gtp-inspect.ios", "radius.ios", "home-agent.ios", "asn.ios",
        "firewall.ios", "probes.ios"})
    void mutatedExamplesAreTranslatedOrRefusedWithALine(String name) throws IOException {
        List<String> lines = IosExamplesTest.example(name).lines().toList();
        Random random = new Random(name.hashCode());
        IosTranslator translator = new IosTranslator(new IosTranslator.Options(Optional.of("s")));
        int refused = 0;
        for (int round = 0; round < 400; round++) {
            String text = String.join("\n", mutate(lines, random));
            IosTranslation t;
            try {
                t = translator.translate(text);
            } catch (IosSyntaxException e) {
                assertThat(e.getMessage()).matches("line \\d+, column \\d+: .+");
                assertThat(e.line()).isBetween(1, lines.size() + 1);
                refused++;
                continue;
            }
            try {
                LOADER.parse(IosYamlWriter.write(t, "mutated " + name));
            } catch (ConfigException e) {
                assertThat(e.errors()).isNotEmpty();
            }
            IosExporter.export(t.config());
        }
        assertThat(refused).as("some mutations must be refused").isPositive();
    }

    private static List<String> mutate(List<String> lines, Random random) {
        List<String> out = new ArrayList<>(lines);
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
            int i = random.nextInt(out.size());
            List<String> words = new ArrayList<>(List.of(out.get(i).strip().split("\\s+")));
            int w = random.nextInt(words.size());
            switch (random.nextInt(6)) {
                case 0 -> words.remove(w);
                case 1 -> words.add(w, words.get(w));
                case 2 -> words.set(w, WORDS[random.nextInt(WORDS.length)]);
                case 3 -> words.add(w, WORDS[random.nextInt(WORDS.length)]);
                case 4 -> out.add(random.nextInt(out.size()), out.remove(i));
                default -> words = words.subList(0, w);
            }
            if (i < out.size()) {
                out.set(i, " " + String.join(" ", words));
            }
        }
        return out;
    }
}
