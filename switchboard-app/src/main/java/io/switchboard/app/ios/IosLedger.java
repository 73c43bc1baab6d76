package io.switchboard.app.ios;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the translation writes down what it did with each line: the report entry, and for a
 * translated line the keys it set (so that the YAML can cite the line).
 */
final class IosLedger {

    final IosReport report = new IosReport();
    final Map<String, IosTranslation.Source> sources = new LinkedHashMap<>();

    /** The line set these keys (one YAML path each); a key set by several lines cites the first. */
    void translated(IosCommand c, List<String> paths) {
        report.add(c, IosReport.Outcome.TRANSLATED, String.join(", ", paths));
        paths.forEach(path -> sources.putIfAbsent(path, new IosTranslation.Source(c.line(), c.text())));
    }

    void translated(IosCommand c, String path) {
        translated(c, List.of(path));
    }

    /** Switchboard does what the line asks without being told. */
    void implied(IosCommand c, String why) {
        report.add(c, IosReport.Outcome.IMPLIED, why);
    }

    /** The line has no meaning for a software director. */
    void ignored(IosCommand c, String why) {
        report.add(c, IosReport.Outcome.IGNORED, why);
    }

    /**
     * {@code now} sets what {@code before} set (IOS keeps the last of two such lines): the earlier
     * line, if any, is reported implied. Returns {@code now}, to be kept as the line of the value.
     */
    IosCommand replacing(IosCommand before, IosCommand now) {
        if (before != null) {
            implied(before, "replaced by line " + now.line() + " (IOS keeps the last)");
        }
        return now;
    }

    /** Switchboard lacks the feature the line configures. */
    void unsupported(IosCommand c, String feature) {
        report.add(c, IosReport.Outcome.UNSUPPORTED, feature);
    }
}
