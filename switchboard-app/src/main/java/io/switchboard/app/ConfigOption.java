package io.switchboard.app;

import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.ios.IosImport;
import io.switchboard.app.ios.IosTranslation;
import io.switchboard.app.ios.IosYamlWriter;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code -c FILE} option shared by {@code run} and {@code check}, and how its errors print. The
 * file is YAML, or an IOS SLB configuration (recognised by its content), which is translated as
 * {@code import-ios} does: its report is printed, and the translation is loaded as YAML would be.
 */
final class ConfigOption {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "YAML configuration, or an IOS SLB configuration")
    Path file;

    @Mixin
    IosOptions ios;

    /** Loads and validates; on errors prints every one with its path and returns null. */
    SwitchboardConfig load(Services services, PrintWriter err) {
        ConfigLoader loader = new ConfigLoader(services.available());
        try {
            if (!isIos()) {
                return loader.load(file);
            }
            Optional<IosTranslation> translated = ios.translate(file, err);
            if (translated.isEmpty()) {
                return null;
            }
            err.print(translated.get().report().text());
            err.flush();
            return loader.parse(IosYamlWriter.write(translated.get(), IosImport.header(file.toString())));
        } catch (ConfigException e) {
            err.printf("%s: %d configuration error%s:%n", file, e.errors().size(), e.errors().size() == 1 ? "" : "s");
            for (ConfigError error : e.errors()) {
                err.printf("  %s: %s%n", error.path(), error.message());
            }
            err.flush();
            return null;
        }
    }

    /** Whether the file holds IOS configuration; an unreadable file is left to the YAML loader to report. */
    private boolean isIos() {
        try {
            return IosImport.looksLikeIos(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return false;
        }
    }
}
