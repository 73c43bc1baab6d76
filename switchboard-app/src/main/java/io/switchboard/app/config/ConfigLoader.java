package io.switchboard.app.config;

import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.YamlNode;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the YAML configuration document into a {@link SwitchboardConfig}. Everything is checked
 * before anything is returned, and every problem is reported at once in one {@link ConfigException}
 * whose message has one {@code path: message} line per problem, for example
 * {@code farms.ggsn.reals[1].weight: must be 1..255}.
 *
 * <p>The services, sticky key kinds and probe types are those the plug-in modules on the class
 * path declare ({@link io.switchboard.director.spi.Plugins}); a loader may enable only some of the
 * services, and a virtual server of another one is an error, not a virtual server that never
 * answers. Instances are immutable and may be shared.
 */
public final class ConfigLoader {

    private final Set<String> availableServices;

    /** @param availableServices the names of the services to accept (of those the plug-ins declare) */
    public ConfigLoader(Set<String> availableServices) {
        this.availableServices = Collections.unmodifiableSet(new LinkedHashSet<>(availableServices));
    }

    /** A loader accepting every service the installed plug-ins declare. */
    public static ConfigLoader forInstalledPlugins() {
        Set<String> names = new LinkedHashSet<>();
        io.switchboard.director.spi.Plugins.installed().services().forEach(s -> names.add(s.spec().name()));
        return new ConfigLoader(names);
    }

    public Set<String> availableServices() {
        return availableServices;
    }

    /**
     * Reads and validates a UTF-8 file.
     *
     * @throws ConfigException if the file cannot be read or the document is not valid
     */
    public SwitchboardConfig load(Path file) {
        return parse(read(file));
    }

    /**
     * Reads a UTF-8 file, with the errors {@link #load} reports.
     *
     * @throws ConfigException if the file cannot be read
     */
    public static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw documentError("cannot read " + file + ": no such file");
        } catch (AccessDeniedException e) {
            throw documentError("cannot read " + file + ": permission denied");
        } catch (CharacterCodingException e) {
            throw documentError("cannot read " + file + ": not UTF-8 text");
        } catch (IOException e) {
            throw documentError("cannot read " + file + ": " + e);
        }
    }

    /**
     * Reads and validates a document held in memory.
     *
     * @throws ConfigException if the document is not valid
     */
    public SwitchboardConfig parse(String yaml) {
        List<ConfigError> errors = new ArrayList<>();
        Optional<YamlNode> root = YamlTree.parse(yaml, errors);
        if (root.isEmpty()) {
            if (errors.isEmpty()) {
                errors.add(new ConfigError(ConfigError.DOCUMENT,
                        "the document is empty; it needs at least farms and virtual-servers"));
            }
            throw new ConfigException(errors);
        }
        Optional<SwitchboardConfig> config = new ConfigBinder(availableServices, errors).bind(root.get());
        if (!errors.isEmpty() || config.isEmpty()) {
            throw new ConfigException(errors.stream().distinct().toList());
        }
        return config.get();
    }

    /**
     * Where {@code yaml} holds a secret in clear text ({@link io.switchboard.director.config.bind.Secrets
     * #clearTextPaths}), by path; meaningful after the document was loaded (which tells which keys
     * are secrets). Empty for a document that does not parse.
     */
    public static List<String> clearTextSecrets(String yaml) {
        return YamlTree.parse(yaml, new ArrayList<>())
                .map(io.switchboard.director.config.bind.Secrets::clearTextPaths).orElse(List.of());
    }

    private static ConfigException documentError(String message) {
        return new ConfigException(List.of(new ConfigError(ConfigError.DOCUMENT, message)));
    }
}
