package io.switchboard.app.ios;

import io.switchboard.director.config.SwitchboardConfig;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An IOS configuration translated: the model the YAML binder would build, the report of every line,
 * and for each key of the model's YAML form the IOS line it came from (the comments of the written
 * YAML cite them).
 *
 * @param sources YAML key paths ({@code farms.PUBLIC.reals[0].weight}) to the line that set them
 */
public record IosTranslation(SwitchboardConfig config, IosReport report, Map<String, Source> sources) {

    public IosTranslation {
        sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    /** An IOS line: its number and text. */
    public record Source(int line, String text) {
    }
}
