package io.switchboard.app;

import io.switchboard.app.config.ConfigReference;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code switchboard config-reference}: prints the configuration reference (docs/configuration-reference.md). */
@Command(name = "config-reference", mixinStandardHelpOptions = true,
        description = "Print the configuration reference (every section's keys, types, defaults) as Markdown.")
final class ConfigReferenceCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getOut().print(ConfigReference.markdown());
        spec.commandLine().getOut().flush();
        return 0;
    }
}
