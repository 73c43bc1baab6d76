package io.switchboard.director.radius;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The FreeRADIUS processes and command-line tools (radclient, the instance script) the RADIUS ITs
 * run: started, waited for, their output kept in files of the test's work directory.
 */
final class FreeRadiusProcess {

    private FreeRadiusProcess() {
    }

    /** What a command printed, and how it exited. */
    record Result(int exit, String output) {
    }

    /**
     * Starts FreeRADIUS in the foreground on the instance in {@code dir} (made by
     * {@code make-instance.sh}) and waits until it is ready; fails with its output if it exits.
     */
    static Process start(Path dir) throws IOException {
        return start(dir, List.of());
    }

    /** As {@link #start(Path)}, the command after {@code prefix} ({@code ip netns exec NAME}: in a namespace). */
    static Process start(Path dir, List<String> prefix) throws IOException {
        Path log = dir.resolve("log").resolve("radius.log");
        Path stdout = dir.resolve("log").resolve("stdout.log");
        List<String> command = new java.util.ArrayList<>(prefix);
        command.addAll(List.of("freeradius", "-f", "-d", dir.toString(), "-n", "radiusd", "-l", log.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(stdout.toFile()).start();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            if (!p.isAlive()) {
                throw new AssertionError("freeradius in " + dir + " exited: " + Files.readString(stdout));
            }
            return Files.exists(log) && Files.readString(log).contains("Ready to process requests");
        });
        return p;
    }

    /** Stops a FreeRADIUS this test started, by its own pid: SIGTERM, then SIGKILL after 10 s. Null or gone: nothing. */
    static void stop(Process p) throws InterruptedException {
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Runs {@code command} to its end (at most {@code timeoutSeconds}, then it is killed and the test
     * fails); a {@code bash} script that fails fails the test too, other commands report their exit.
     */
    static Result run(Path work, List<String> command, int timeoutSeconds) throws IOException, InterruptedException {
        Path out = Files.createTempFile(work, "out", ".txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(command + " did not finish in " + timeoutSeconds + " s: " + Files.readString(out));
        }
        Result result = new Result(p.exitValue(), Files.readString(out));
        if (command.get(0).equals("bash") && result.exit() != 0) {
            throw new AssertionError(command + " failed: " + result.output());
        }
        return result;
    }
}
