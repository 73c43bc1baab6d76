package io.switchboard.packaging;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads, found without a PromQL parser: label matchers,
 * strings, ranges and label lists are cut out first, then every remaining identifier that is not a
 * function (followed by a parenthesis), a keyword or a Grafana variable is a metric or recording
 * rule name. Enough for the rules and the dashboard this module ships, whose syntax promtool checks.
 */
final class PromQl {

    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*]");
    private static final Pattern LABEL_LIST = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** An identifier not inside a word, a number ("5m") or a variable ("$instance"). */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w$.:])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "inf", "nan", "Inf", "NaN");
    /** Grafana's label_values(METRIC_SELECTOR, LABEL): the selector is PromQL, the label is not. */
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*\\w+\\s*\\)\\s*$");

    private PromQl() {
    }

    /** The metric and recording rule names {@code expr} reads. */
    static Set<String> metricNames(String expr) {
        Matcher labelValues = LABEL_VALUES.matcher(expr);
        String s = labelValues.matches() ? labelValues.group(1) : expr;
        s = STRING.matcher(s).replaceAll(" ");
        s = MATCHERS.matcher(s).replaceAll(" ");
        s = RANGE.matcher(s).replaceAll(" ");
        s = LABEL_LIST.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String name = m.group();
            if (KEYWORDS.contains(name) || followedByParenthesis(s, m.end())) {
                continue;
            }
            names.add(name);
        }
        return names;
    }

    private static boolean followedByParenthesis(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '(';
            }
        }
        return false;
    }
}
