package io.switchboard.director.routing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A routing daemon's control program (birdc, vtysh) run to completion, its output returned. */
final class ControlCommand {

    private ControlCommand() {
    }

    /** The command's output (stdout and stderr); throws if it failed, timed out or printed {@code failure}. */
    static String run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // The output is small (a few lines); reading it before waiting cannot dead-lock on a full pipe.
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException(command.get(0) + " timed out after " + timeout);
        }
        if (process.exitValue() != 0) {
            throw new IOException(command.get(0) + " exited " + process.exitValue() + ": " + output.strip());
        }
        return output;
    }
}
