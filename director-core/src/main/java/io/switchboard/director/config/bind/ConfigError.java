package io.switchboard.director.config.bind;

import java.util.Objects;

/**
 * One problem found in a configuration document.
 *
 * @param path    where: dotted keys and list indexes from the document root, such as
 *                {@code farms.ggsn.reals[1].weight}; {@value #DOCUMENT} for the document as a whole
 * @param message what is wrong, such as {@code must be 1..255}
 */
public record ConfigError(String path, String message) {

    /** The path of errors about the whole document (empty, unreadable, not YAML). */
    public static final String DOCUMENT = "(document)";

    public ConfigError {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    /** {@code path: message}, the form shown to operators. */
    @Override
    public String toString() {
        return path + ": " + message;
    }
}
