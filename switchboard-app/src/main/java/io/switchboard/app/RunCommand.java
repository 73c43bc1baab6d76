package io.switchboard.app;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.bind.Durations;
import io.switchboard.director.transport.Transports;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard run -c FILE}: validates, binds, and serves until stopped; on SIGHUP, reloads
 * {@code FILE} ({@link io.switchboard.app.reload.Reloader}).
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a director node.")
final class RunCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RunCommand.class);

    @Mixin
    ConfigOption config;

    @Option(names = "--shutdown-deadline", paramLabel = "D", defaultValue = "10s",
            description = "on SIGTERM, how long to answer what is in flight before exiting (default: ${DEFAULT-VALUE})")
    String shutdownDeadline;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Services services = Services.discover();
        Duration deadline;
        try {
            deadline = Durations.parse(shutdownDeadline);
            if (deadline.isNegative()) {
                throw new IllegalArgumentException("must not be negative");
            }
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("switchboard: --shutdown-deadline " + shutdownDeadline + ": " + e.getMessage());
            return 2;
        }
        SwitchboardConfig loaded = config.load(services, spec.commandLine().getErr());
        if (loaded == null) {
            return 2;
        }
        // Checked before anything binds: a configured transport this host lacks (io_uring disabled by
        // the kernel or a seccomp profile) is refused with the host's reason, not silently replaced.
        Optional<String> transportProblem = Transports.problem(loaded.transport());
        if (transportProblem.isPresent()) {
            LOG.error("{}", transportProblem.get());
            spec.commandLine().getErr().println("switchboard: cannot start: " + transportProblem.get());
            return 1;
        }
        Node node = new Node(loaded, config.loadedYaml(), services);
        try {
            node.startAndWait();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            spec.commandLine().getErr().println("switchboard: cannot start: " + cause.getMessage());
            node.close();
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> node.shutdown(deadline), "switchboard-shutdown"));
        // unlisted-member: leave: the node has closed itself; exit non-zero without the shutdown hook's
        // drain of a node that is gone, so that the service manager sees the failure.
        node.onClusterLeft(() -> Runtime.getRuntime().halt(3));
        try {
            // Replaces the JVM's own SIGHUP handling, which would exit. A SIGHUP the starting process
            // ignored (nohup) stays ignored: HotSpot does not install a handler over SIG_IGN, so no
            // reload would ever happen; say so rather than let a reload by signal vanish.
            if (Signal.handle(new Signal("HUP"), signal -> reload(node)) == sun.misc.SignalHandler.SIG_IGN) {
                LOG.warn("SIGHUP is ignored by the process that started switchboard (nohup?): it will not"
                        + " reload; use switchboard reload or the API, or start it without ignoring SIGHUP");
            }
        } catch (IllegalArgumentException e) {
            LOG.warn("SIGHUP does not reload on this platform ({}); use switchboard reload", e.getMessage());
        }
        LOG.info("switchboard running with {}; admin on {}", config.file,
                node.adminAddress() == null ? "(disabled)" : node.adminAddress());
        return 0;
    }

    /**
     * SIGHUP: the file given to {@code -c} is read again (an IOS file translated with this command's
     * options) and reloaded; the outcome is logged by the reloader. Runs on the JVM's signal thread.
     */
    private void reload(Node node) {
        String source = "SIGHUP (" + config.file + ")";
        java.io.StringWriter why = new java.io.StringWriter();
        String yaml = config.yaml(new java.io.PrintWriter(why, true));
        if (yaml == null) {
            node.reloader().unreadable(why.toString().strip(), source);
        } else {
            node.reloader().reload(yaml, false, source);
        }
    }
}
