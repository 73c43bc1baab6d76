package io.switchboard.packaging;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The system tools these tests run (promtool, dpkg, systemd-analyze, lintian), found on the PATH. */
final class Tools {

    /** This module's directory (Surefire and Failsafe run in it; the property says so explicitly). */
    static final Path MODULE = Path.of(System.getProperty("switchboard.packaging.dir", "."));

    private Tools() {
    }

    /** The executable {@code name} on the PATH, if there is one. */
    static Optional<Path> find(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** What a finished command printed (standard output and error together) and its exit status. */
    record Result(int exit, String output) {
    }

    /** Runs {@code command} in {@code dir} to its end (at most {@code timeoutSeconds}). */
    static Result run(Path dir, long timeoutSeconds, Map<String, String> env, List<String> command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        byte[] output;
        try {
            // The output is small: read to the end, then the exit status.
            output = process.getInputStream().readAllBytes();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IllegalStateException(command + " did not finish in " + timeoutSeconds + " s");
            }
        } finally {
            process.destroyForcibly();
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    static Result run(Path dir, String... command) throws IOException, InterruptedException {
        return run(dir, 60, Map.of(), List.of(command));
    }
}
