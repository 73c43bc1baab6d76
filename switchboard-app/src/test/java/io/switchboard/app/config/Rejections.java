package io.switchboard.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.switchboard.director.config.bind.ConfigError;
import java.util.List;

/** What the loader says of a document it must refuse: every problem, one {@code path: message} line each. */
final class Rejections {

    private Rejections() {
    }

    static List<String> errors(ConfigLoader loader, String yaml) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> loader.parse(yaml));
        assertThat(e).as("document should be rejected:%n%s", yaml).isNotNull();
        return e.errors().stream().map(ConfigError::toString).toList();
    }
}
