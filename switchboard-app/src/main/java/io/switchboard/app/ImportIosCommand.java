package io.switchboard.app;

import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.ios.IosImport;
import io.switchboard.app.ios.IosTranslation;
import io.switchboard.app.ios.IosYamlWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard import-ios FILE}: translates an IOS SLB configuration into YAML, with a report
 * of every line. Exit 0 when every line was translated, implied or ignored; 3 when some were
 * unsupported; 2 when the file cannot be read, a line is not understood, or the translation does
 * not pass {@code check}.
 */
@Command(name = "import-ios", mixinStandardHelpOptions = true,
        description = "Translate an IOS SLB configuration to YAML and report on every line.")
final class ImportIosCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "IOS configuration (show running-config)")
    Path file;

    @Option(names = {"-o", "--output"}, paramLabel = "OUT", description = "write the YAML here (default: stdout)")
    Path output;

    @Option(names = "--report", paramLabel = "JSON", description = "write the line-by-line report as JSON here")
    Path report;

    @Mixin
    IosOptions ios;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<IosTranslation> translated = ios.translate(file, err);
        if (translated.isEmpty()) {
            return 2;
        }
        IosTranslation t = translated.get();
        String yaml = IosYamlWriter.write(t, IosImport.header(file.getFileName().toString()));
        try {
            new ConfigLoader(Services.discover().available()).parse(yaml);
        } catch (ConfigException e) {
            err.printf("%s: the translation does not pass check:%n", file);
            e.errors().forEach(error -> err.printf("  %s: %s%n", error.path(), error.message()));
            err.flush();
            return 2;
        }
        try {
            if (output == null) {
                out.print(yaml);
                out.flush();
            } else {
                Files.writeString(output, yaml, StandardCharsets.UTF_8);
            }
            if (report != null) {
                Files.writeString(report, t.report().json(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            err.println("switchboard: cannot write: " + e.getMessage());
            return 2;
        }
        PrintWriter reportTo = output == null ? err : out;
        reportTo.print(t.report().text());
        reportTo.flush();
        return t.report().exitCode();
    }
}
