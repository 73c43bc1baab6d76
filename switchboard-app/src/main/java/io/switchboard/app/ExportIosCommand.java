package io.switchboard.app;

import io.switchboard.app.ios.IosExporter;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard export-ios -c FILE}: writes a configuration as IOS SLB commands, for what IOS
 * can express (the rest as {@code !} comments): the inverse of {@code import-ios}.
 */
@Command(name = "export-ios", mixinStandardHelpOptions = true,
        description = "Write a configuration as IOS SLB commands (the inverse of import-ios).")
final class ExportIosCommand implements Callable<Integer> {

    @Mixin
    ConfigOption config;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write the IOS lines here (default: stdout)")
    Path output;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        SwitchboardConfig loaded = config.load(Services.discover(), spec.commandLine().getErr());
        if (loaded == null) {
            return 2;
        }
        String ios = IosExporter.export(loaded);
        if (output == null) {
            spec.commandLine().getOut().print(ios);
            spec.commandLine().getOut().flush();
            return 0;
        }
        try {
            Files.writeString(output, ios, StandardCharsets.UTF_8);
            return 0;
        } catch (IOException e) {
            spec.commandLine().getErr().println("switchboard: cannot write " + output + ": " + e.getMessage());
            return 2;
        }
    }
}
