package io.switchboard.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The sample captures the project ships ({@code src/test/resources/pcaps}, all but {@code negative/})
 * and the configuration they all run through unchanged ({@code golden/golden.yaml}): the golden
 * summaries and the live/offline conformance suite take them from here.
 */
final class SampleCaptures {

    static final Path PCAPS = Path.of("src/test/resources/pcaps");
    static final Path GOLDEN = Path.of("src/test/resources/golden");
    static final Path CONFIG = GOLDEN.resolve("golden.yaml");

    private SampleCaptures() {
    }

    static List<Path> all() throws IOException {
        try (Stream<Path> files = Files.walk(PCAPS)) {
            return files.filter(p -> p.toString().matches(".*\\.pcap(ng)?$"))
                    .filter(p -> !PCAPS.relativize(p).startsWith("negative"))
                    .sorted()
                    .toList();
        }
    }
}
