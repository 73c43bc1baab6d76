package io.switchboard.codec.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * The inputs a fuzz target found worth keeping, replayed by the suite: {@code src/test/resources/fuzz/NAME.hex},
 * one input per line in hex ({@code #} comments), written by {@code benchmarks/fuzz/run.sh} from the corpus of a
 * run ({@code -Pfuzz}) and by hand from a finding. The suite does not fuzz (Jazzer's agent costs ~20 s a class);
 * it checks that every input kept still meets the target's rule, so a finding once fixed stays fixed.
 */
public final class FuzzCorpus {

    private FuzzCorpus() {
    }

    /** The inputs of {@code fuzz/NAME.hex}; the file must exist and hold some. */
    public static List<byte[]> inputs(String name) {
        try (InputStream in = FuzzCorpus.class.getResourceAsStream("/fuzz/" + name + ".hex")) {
            assertThat(in).as("fuzz/%s.hex on the test class path", name).isNotNull();
            List<byte[]> inputs = new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines()
                    .map(String::strip).filter(l -> !l.startsWith("#"))
                    .map(l -> l.isEmpty() ? new byte[0] : Hex.bytes(l)).toList();
            assertThat(inputs).as("inputs in fuzz/%s.hex", name).isNotEmpty();
            return inputs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * With {@code -Dfuzz.seeds.write=DIR} (a module's {@code src/test/resources/fuzz}): adds the target's seeds that
     * are not there yet to {@code DIR/NAME.hex}, so that {@code benchmarks/fuzz/run.sh} starts the fuzzer from them
     * (it copies the file's inputs into the fuzzer's corpus). Does nothing otherwise.
     */
    public static void writeSeedsIfAsked(String name, String header, List<byte[]> seeds) {
        String dir = System.getProperty("fuzz.seeds.write");
        if (dir == null) {
            return;
        }
        java.nio.file.Path file = java.nio.file.Path.of(dir, name + ".hex");
        try {
            java.util.Set<String> lines = new java.util.LinkedHashSet<>();
            if (java.nio.file.Files.exists(file)) {
                lines.addAll(java.nio.file.Files.readAllLines(file, StandardCharsets.US_ASCII));
            } else {
                header.lines().forEach(l -> lines.add("# " + l));
            }
            for (byte[] seed : seeds) {
                lines.add(Hex.of(seed));
            }
            java.nio.file.Files.createDirectories(file.getParent());
            java.nio.file.Files.write(file, lines, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code check} on every input of {@code fuzz/NAME.hex}, naming the input that fails it. */
    public static void replay(String name, Consumer<byte[]> check) {
        List<byte[]> inputs = inputs(name);
        for (int i = 0; i < inputs.size(); i++) {
            try {
                check.accept(inputs.get(i));
            } catch (RuntimeException | AssertionError e) {
                throw new AssertionError("fuzz/" + name + ".hex input " + i + ": " + Hex.of(inputs.get(i)), e);
            }
        }
    }
}
