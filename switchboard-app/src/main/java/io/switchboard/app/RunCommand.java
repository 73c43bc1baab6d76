package io.switchboard.app;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.bind.Durations;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code switchboard run -c FILE}: validates, binds, and serves until stopped. */
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
        Node node = new Node(loaded, services);
        try {
            node.startAndWait();
        } catch (Exception e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            spec.commandLine().getErr().println("switchboard: cannot start: " + cause.getMessage());
            node.close();
            return 1;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> node.shutdown(deadline), "switchboard-shutdown"));
        LOG.info("switchboard running with {}; admin on {}", config.file,
                node.adminAddress() == null ? "(disabled)" : node.adminAddress());
        return 0;
    }
}
