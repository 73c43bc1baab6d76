package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.YamlNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration-reference.md is what {@code switchboard config-reference} prints, so it cannot drift
 * from the declarations the loader reads with (a key a binder reads without declaring it fails every
 * binder test with an {@link IllegalStateException}); every declared key says what it does; no binder
 * opens a section from a schema the reference does not reach; and the documents the project shows or
 * ships use only declared keys.
 */
class ConfigReferenceTest {

    private static final Path DOCS = Path.of("..", "docs");
    private static final Path REFERENCE = DOCS.resolve("configuration-reference.md");
    private static final String REGENERATE = "regenerate it: java -jar switchboard-app/target/switchboard.jar"
            + " config-reference > docs/configuration-reference.md (or `switchboard config-reference`)";

    @Test
    void theReferenceIsWhatTheCommandPrints() throws IOException {
        String generated = ConfigReference.markdown();
        if (Boolean.getBoolean("config-reference.write")) { // mvn ... -Dconfig-reference.write=true
            Files.writeString(REFERENCE, generated);
        }
        String written = Files.exists(REFERENCE) ? Files.readString(REFERENCE) : "";
        if (!written.equals(generated)) {
            fail("docs/configuration-reference.md is not current; " + REGENERATE + "\n" + diff(written, generated));
        }
    }

    /**
     * A section accepts only the keys its schema declares, so a key a binder accepts is a declared key;
     * this makes each of them say what it is (the reference's last column).
     */
    @Test
    void everyKeyIsDeclaredWithADescription() {
        List<String> undescribed = ConfigReference.keys().stream().filter(e -> e.getValue().note().isBlank())
                .map(Map.Entry::getKey).toList();
        assertThat(undescribed).as("keys declared without .note(...): add what each does").isEmpty();
        assertThat(ConfigReference.keys()).extracting(Map.Entry::getKey)
                .contains("probes.<name>.expect-status", "virtual-servers.<name>.gtp.apn-maps[n].priority",
                        "virtual-servers.<name>.clients[n].dae-port", "dfp.agents[n].retry-interval",
                        "route-health.bgp.neighbours[n].as", "firewall-farms.<name>.firewalls[n].outside.mac");
    }

    /**
     * Sub-sections are opened from their key's declaration ({@code Section.section}, {@code item},
     * {@code named}), which the reference walks; only the document itself (and its named farms, virtual
     * servers and probes, from the root's declarations) is opened with {@code Section.open}. A binder
     * opening a section from a schema of its own would accept keys the reference does not list.
     */
    @Test
    void onlyTheDocumentIsOpenedFromAGivenSchema() throws IOException {
        List<String> opened = new ArrayList<>();
        try (var modules = Files.list(Path.of(".."))) {
            for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
                try (var files = Files.walk(module.resolve("src/main/java"))) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        if (file.endsWith("ConfigBinder.java") || file.getParent().endsWith("config/bind")) {
                            continue;
                        }
                        if (Files.readString(file).contains("Section.open(")) {
                            opened.add(file.toString());
                        }
                    }
                }
            }
        }
        assertThat(opened).as("open sub-sections through their declaring key (section, item, named)").isEmpty();
    }

    @Test
    void theCompleteExampleUsesOnlyDeclaredKeys() throws IOException {
        String page = Files.readString(DOCS.resolve("configuration.md"));
        int section = page.indexOf("### A complete example");
        int start = page.indexOf("```yaml\n", section) + "```yaml\n".length();
        assertThat(undeclared(page.substring(start, page.indexOf("```", start)))).isEmpty();
    }

    @Test
    void theShippedConfigurationUsesOnlyDeclaredKeys() throws IOException {
        String shipped = Files.readString(Path.of("..", "packaging", "src", "deb", "etc", "switchboard.yaml"));
        assertThat(undeclared(shipped)).isEmpty();
    }

    @Test
    void aKeyReadWithoutDeclarationIsABug() {
        List<ConfigError> errors = new ArrayList<>();
        YamlNode root = YamlTree.parse("persistence: { file: /tmp/x }", errors).orElseThrow();
        io.switchboard.director.config.bind.Section doc = io.switchboard.director.config.bind.Section
                .open(root, "", errors, CoreSchema.ROOT).orElseThrow();
        org.assertj.core.api.Assertions.assertThatIllegalStateException().isThrownBy(() -> doc.string("no-such"))
                .withMessageContaining("not declared");
        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(() -> doc.section("persistence").orElseThrow().integer("file"))
                .withMessageContaining("declared as PATH");
    }

    /** The keys of {@code yaml} that no declaration names, by their schematic path. */
    private static Set<String> undeclared(String yaml) {
        List<ConfigError> errors = new ArrayList<>();
        YamlNode root = YamlTree.parse(yaml, errors).orElseThrow();
        assertThat(errors).isEmpty();
        Set<String> declared = Set.copyOf(ConfigReference.paths());
        Set<String> missing = new TreeSet<>();
        walk(root, "", declared, missing);
        return missing;
    }

    /** Descends into a key's value only where the declarations do (a declared section or list of them). */
    private static void walk(YamlNode node, String path, Set<String> declared, Set<String> missing) {
        if (node instanceof YamlNode.Mapping mapping) {
            for (Map.Entry<String, YamlNode> e : mapping.entries().entrySet()) {
                String child = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                if (!declared.contains(child)) {
                    missing.add(child);
                } else if (declared.stream().anyMatch(p -> p.startsWith(child + ".<name>."))) {
                    if (e.getValue() instanceof YamlNode.Mapping named) {
                        named.entries().values().forEach(v -> walk(v, child + ".<name>", declared, missing));
                    }
                } else if (declared.stream().anyMatch(p -> p.startsWith(child + "[n]."))) {
                    if (e.getValue() instanceof YamlNode.Sequence items) {
                        items.items().forEach(v -> walk(v, child + "[n]", declared, missing));
                    }
                } else if (declared.stream().anyMatch(p -> p.startsWith(child + "."))) {
                    walk(e.getValue(), child, declared, missing);
                }
            }
        }
    }

    /** The lines only one side has, in order: enough to see what changed. */
    private static String diff(String written, String generated) {
        List<String> a = written.lines().toList();
        List<String> b = generated.lines().toList();
        StringBuilder out = new StringBuilder();
        a.stream().filter(l -> !b.contains(l)).forEach(l -> out.append("- ").append(l).append('\n'));
        b.stream().filter(l -> !a.contains(l)).forEach(l -> out.append("+ ").append(l).append('\n'));
        return out.toString();
    }
}
