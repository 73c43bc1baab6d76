package io.switchboard.app;

import io.switchboard.app.config.ConfigError;
import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code -c FILE} option shared by {@code run} and {@code check}, and how its errors print. */
final class ConfigOption {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "YAML configuration")
    Path file;

    /** Loads and validates; on errors prints every one with its path and returns null. */
    SwitchboardConfig load(Services services, PrintWriter err) {
        try {
            return new ConfigLoader(services.available()).load(file);
        } catch (ConfigException e) {
            err.printf("%s: %d configuration error%s:%n", file, e.errors().size(), e.errors().size() == 1 ? "" : "s");
            for (ConfigError error : e.errors()) {
                err.printf("  %s: %s%n", error.path(), error.message());
            }
            err.flush();
            return null;
        }
    }
}
