package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The configurations docs/deploying-a-cluster.md shows are the daemons' own to judge: BIRD 2 parses
 * the node's bird.conf (with the include Switchboard writes) and the router's ({@code bird -p}), and
 * keepalived checks the VRRP configuration ({@code keepalived -t}), which must fail for a misspelt
 * keyword so that the check is known to check. Skipped where bird2 or keepalived are missing.
 */
class DeployingAClusterDocsTest {

    private static final Path PAGE = Path.of("..", "docs", "deploying-a-cluster.md");

    @TempDir
    Path dir;

    private static List<String> blocks(String language) throws IOException {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(PAGE));
        List<String> blocks = new ArrayList<>();
        while (m.find()) {
            blocks.add(m.group(1));
        }
        return blocks;
    }

    @Test
    void birdParsesTheNodesAndTheRoutersConfiguration() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/bird")), "bird2 is not installed (.ci/run installs it)");
        List<String> bird = blocks("bird");
        assertThat(bird).as("the node's bird.conf, what Switchboard writes, the router's").hasSize(3);
        Path include = Files.writeString(dir.resolve("switchboard.conf"), bird.get(1));
        Path node = Files.writeString(dir.resolve("node.conf"),
                bird.get(0).replace("/etc/bird/switchboard.conf", include.toString()));
        assertThat(bird.get(0)).contains("include \"/etc/bird/switchboard.conf\";");
        Path router = Files.writeString(dir.resolve("router.conf"), bird.get(2));
        for (Path conf : List.of(node, router)) {
            String[] result = run("/usr/sbin/bird", "-p", "-c", conf.toString());
            assertThat(result[0]).as("bird -p %s: %s", conf.getFileName(), result[1]).isEqualTo("0");
        }
    }

    @Test
    void keepalivedTakesTheVrrpConfiguration() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/keepalived")),
                "keepalived is not installed (.ci/run installs it)");
        List<String> keepalived = blocks("keepalived");
        assertThat(keepalived).hasSize(1);
        assertThat(keepalived.get(0)).contains("http://127.0.0.1:8080/health", "track_script");
        // keepalived -t prints each problem and ends itself with SIGTERM, whatever it found: its output is the verdict.
        Path good = Files.writeString(dir.resolve("keepalived.conf"), keepalived.get(0));
        assertThat(run("/usr/sbin/keepalived", "-t", "-f", good.toString())[1]).isBlank();
        Path bad = Files.writeString(dir.resolve("bad.conf"), keepalived.get(0).replace("advert_int", "advert_intx"));
        assertThat(run("/usr/sbin/keepalived", "-t", "-f", bad.toString())[1]).contains("Unknown keyword 'advert_intx'");
    }

    private static String[] run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("%s finished", List.of(command)).isTrue();
        return new String[] {Integer.toString(p.exitValue()), out};
    }
}
