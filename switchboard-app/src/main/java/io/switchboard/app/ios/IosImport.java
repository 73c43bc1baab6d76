package io.switchboard.app.ios;

import java.util.regex.Pattern;

/**
 * Recognises an IOS configuration by its content, so that {@code check -c} and {@code run -c} take
 * one where they take YAML: it has {@code ip slb} lines, and no line opens with a YAML key.
 */
public final class IosImport {

    private static final Pattern SLB_LINE = Pattern.compile("(?m)^\\s*(no\\s+)?ip\\s+slb\\s");
    private static final Pattern YAML_KEY = Pattern.compile("(?m)^[A-Za-z0-9_-]+:(\\s|$)");

    private IosImport() {
    }

    public static boolean looksLikeIos(String text) {
        return SLB_LINE.matcher(text).find() && !YAML_KEY.matcher(text).find();
    }

    /** The comment opening a translated document. */
    public static String header(String source) {
        return "Translated from the IOS SLB configuration " + source + " by switchboard import-ios.\n"
                + "Each key set by an IOS line cites it; a key without a citation holds IOS's default, or\n"
                + "Switchboard's where IOS has no such setting.\n"
                + "See docs/ios-slb.md for what each IOS command becomes.";
    }
}
