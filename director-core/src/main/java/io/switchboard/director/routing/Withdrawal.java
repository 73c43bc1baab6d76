package io.switchboard.director.routing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The withdrawal that outlives the node: a small process, started by the node, that waits on a pipe
 * only the node holds open and runs the speaker's withdraw-everything command when it closes. The
 * kernel closes the pipe however the node ends (SIGKILL, a crash, the OOM killer, a clean exit),
 * so the daemon, which would otherwise go on announcing the addresses of a dead process, withdraws
 * them within milliseconds and the routers move the traffic; BFD is for the host or the link.
 */
public final class Withdrawal {

    private final Process watcher;

    private Withdrawal(Process watcher) {
        this.watcher = watcher;
    }

    /** Starts the watcher for {@code command} (the speaker's {@link BgpSpeaker#withdrawAll()}). */
    public static Withdrawal arm(List<String> command) throws IOException {
        List<String> shell = new ArrayList<>(List.of("sh", "-c",
                // read ends at end of file, i.e. when the last writer (the node) is gone; nothing is ever written.
                "read -r _ || true; exec \"$@\"", "switchboard-withdraw"));
        shell.addAll(command);
        return new Withdrawal(new ProcessBuilder(shell).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
    }

    public boolean armed() {
        return watcher.isAlive();
    }

    /** Withdraws now (the node stops serving): the watcher runs its command and ends. */
    public void fire() throws IOException {
        watcher.getOutputStream().close();
    }
}
