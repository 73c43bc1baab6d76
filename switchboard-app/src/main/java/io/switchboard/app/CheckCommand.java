package io.switchboard.app;

import io.switchboard.director.config.SwitchboardConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code switchboard check -c FILE}: validates a configuration without binding anything. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Validate a configuration; print every error with its path.")
final class CheckCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        SwitchboardConfig loaded = config.load(Services.discover(), spec.commandLine().getErr());
        if (loaded == null) {
            return 2;
        }
        spec.commandLine().getOut().printf("%s: OK (%d farm%s, %d virtual server%s)%n", config.file,
                loaded.farms().size(), loaded.farms().size() == 1 ? "" : "s",
                loaded.virtualServers().size(), loaded.virtualServers().size() == 1 ? "" : "s");
        return 0;
    }
}
