package io.switchboard.director.staticnat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's side of static NAT against a stand-in for nft (a script that logs its arguments and
 * prints counters as {@code nft list counters} does): what it runs when, the counters as metrics, and
 * a refused table failing the start. StaticNatNetnsIT runs the real nft.
 */
class StaticNatTest {

    @TempDir
    Path dir;

    private static StaticNatConfig config() throws Exception {
        return new StaticNatConfig("t1", List.of(
                new StaticNatConfig.Entry(Action.NAT, Optional.empty(), List.of(new StaticNatConfig.Real(
                        InetAddress.getByName("10.9.2.2"), 0, Optional.of(InetAddress.getByName("10.9.0.10"))))),
                new StaticNatConfig.Entry(Action.DROP, Optional.empty(), List.of(new StaticNatConfig.Real(
                        InetAddress.getByName("10.9.2.3"), 53, Optional.empty())))));
    }

    private Path fakeNft(String body) throws IOException {
        Path nft = dir.resolve("nft");
        Files.writeString(nft, "#!/bin/sh\necho \"$@\" >> " + dir.resolve("calls") + "\n" + body);
        Files.setPosixFilePermissions(nft, PosixFilePermissions.fromString("rwx------"));
        return nft;
    }

    @Test
    void theTableIsWrittenItsCountersBecomeMetricsAndItIsDeletedAtStop() throws Exception {
        Path nft = fakeNft("""
                if [ "$1" = list ]; then
                  printf 'table ip t1 {\\n\\tcounter nat_0 {\\n\\t\\tpackets 4 bytes 240\\n\\t}\\n'
                  printf '\\tcounter drop_1 {\\n\\t\\tpackets 7 bytes 420\\n\\t}\\n}\\n'
                fi
                """);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (StaticNat nat = StaticNat.start(nft.toString(), config(), registry)) {
            nat.readNow();
            assertThat(registry.get("switchboard.static.nat.flows").tag("real", "10.9.2.2")
                    .tag("translated", "10.9.0.10").functionCounter().count()).isEqualTo(4);
            assertThat(registry.get("switchboard.static.nat.dropped").tag("real", "10.9.2.3:53")
                    .functionCounter().count()).isEqualTo(7);
        }
        List<String> calls = Files.readAllLines(dir.resolve("calls"));
        assertThat(calls.get(0)).startsWith("-f ");
        assertThat(calls).contains("list counters table ip t1");
        assertThat(calls.get(calls.size() - 1)).isEqualTo("delete table ip t1");
        assertThat(registry.get("switchboard.static.nat.read.failures").counter().count()).isZero();
    }

    @Test
    void aTableNftRefusesFailsTheStartWithNftsWords() throws Exception {
        Path nft = fakeNft("echo 'Error: Could not process rule: Operation not permitted' >&2\nexit 1\n");
        IOException e = catchThrowableOfType(IOException.class,
                () -> StaticNat.start(nft.toString(), config(), new SimpleMeterRegistry()));
        assertThat(e).hasMessageContaining("exited 1").hasMessageContaining("Operation not permitted");
    }
}
