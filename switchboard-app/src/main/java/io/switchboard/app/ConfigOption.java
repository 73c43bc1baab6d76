package io.switchboard.app;

import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.app.config.ConfigException;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.app.ios.IosImport;
import io.switchboard.app.ios.IosTranslation;
import io.switchboard.app.ios.IosYamlWriter;
import io.switchboard.director.config.SwitchboardConfig;
import java.io.PrintWriter;
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

    private String loaded;

    /** Loads and validates; on errors prints every one with its path and returns null. */
    SwitchboardConfig load(Services services, PrintWriter err) {
        String yaml = yaml(err);
        if (yaml == null) {
            return null;
        }
        try {
            SwitchboardConfig config = new ConfigLoader(services.available()).parse(yaml);
            loaded = yaml;
            warnOfReadableSecrets(yaml, err);
            return config;
        } catch (ConfigException e) {
            print(e, err);
            return null;
        }
    }

    /** The YAML the last successful {@link #load} read (an IOS file's translation). */
    String loadedYaml() {
        return loaded;
    }

    /**
     * The file as a YAML document, not yet validated: as it is, or an IOS file's translation (whose
     * report is printed). Null, with the reason printed, when it cannot be read or translated.
     */
    String yaml(PrintWriter err) {
        String text;
        try {
            text = ConfigLoader.read(file);
        } catch (ConfigException e) {
            print(e, err);
            return null;
        }
        if (!IosImport.looksLikeIos(text)) {
            return text;
        }
        Optional<IosTranslation> translated = ios.translate(file, err);
        if (translated.isEmpty()) {
            return null;
        }
        err.print(translated.get().report().text());
        err.flush();
        return IosYamlWriter.write(translated.get(), IosImport.header(file.toString()));
    }

    /**
     * A file that others may read must not hold secrets in clear text: each such secret is named by
     * its path, with the two ways out (a tighter mode, or the secret kept in a file or the environment).
     */
    private void warnOfReadableSecrets(String yaml, PrintWriter err) {
        java.util.List<String> clear = ConfigLoader.clearTextSecrets(yaml);
        if (clear.isEmpty() || !readableByOthers(file)) {
            return;
        }
        err.printf("%s: warning: readable by others and holds %d secret%s in clear text (chmod o-r %s, or give"
                + " each as { file: PATH } or { env: NAME }):%n", file, clear.size(), clear.size() == 1 ? "" : "s",
                file);
        clear.forEach(path -> err.printf("  %s%n", path));
        err.flush();
    }

    /** Whether users other than the owner and group may read {@code path}; false where modes are not POSIX. */
    static boolean readableByOthers(Path path) {
        try {
            return java.nio.file.Files.getPosixFilePermissions(path)
                    .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
        } catch (UnsupportedOperationException | java.io.IOException e) {
            return false;
        }
    }

    private void print(ConfigException e, PrintWriter err) {
        err.printf("%s: %d configuration error%s:%n", file, e.errors().size(), e.errors().size() == 1 ? "" : "s");
        for (ConfigError error : e.errors()) {
            err.printf("  %s: %s%n", error.path(), error.message());
        }
        err.flush();
    }
}
