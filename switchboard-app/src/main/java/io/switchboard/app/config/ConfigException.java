package io.switchboard.app.config;

import io.switchboard.director.config.bind.ConfigError;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A configuration document was rejected. Carries every error found, not just the first; the
 * message lists them one per line as {@code path: message}.
 */
public final class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors) {
        super(errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n")));
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one error");
        }
        this.errors = List.copyOf(errors);
    }

    /** The errors in the order they were found: section by section, cross-references last. */
    public List<ConfigError> errors() {
        return errors;
    }
}
