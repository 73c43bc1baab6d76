package io.switchboard.app.ios;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One IOS SLB command line in its mode, with the lines of the mode it opened as children. The
 * keyword is the full name the line's (possibly abbreviated) first word stands for; {@link #args()}
 * are the words after it.
 *
 * @param line    the line number in the file, 1-based
 * @param text    the line as written, without leading or trailing blanks
 * @param mode    the mode the command belongs to ({@link IosMode#SLB} for {@code ip slb ...})
 * @param negated the line starts with {@code no}
 * @param end     the column just after the line's last word, where a missing argument is reported
 */
record IosCommand(int line, String text, IosMode mode, String keyword, boolean negated, List<IosWord> args,
        int end, List<IosCommand> children) {

    IosCommand {
        args = List.copyOf(args);
    }

    static IosCommand of(int line, String text, IosMode mode, String keyword, boolean negated, List<IosWord> args,
            int end) {
        return new IosCommand(line, text, mode, keyword, negated, args, end, new ArrayList<>());
    }

    /** The lines of the mode this command opened, in order. */
    @Override
    public List<IosCommand> children() {
        return Collections.unmodifiableList(children);
    }

    void add(IosCommand child) {
        children.add(child);
    }

    int argCount() {
        return args.size();
    }

    /** Argument {@code i} as written. */
    String arg(int i) {
        return args.get(i).text();
    }

    boolean hasArg(int i) {
        return i < args.size();
    }

    /** The column of argument {@code i}, or just after the line's end when there is none. */
    int column(int i) {
        return i < args.size() ? args.get(i).column() : end + 1;
    }

    /**
     * Whether argument {@code i} is {@code keyword} or an abbreviation of it that none of
     * {@code others} (the keywords also valid at that place) shares.
     */
    boolean isKeyword(int i, String keyword, String... others) {
        if (!hasArg(i)) {
            return false;
        }
        String w = arg(i).toLowerCase(Locale.ROOT);
        if (w.equals(keyword)) {
            return true;
        }
        if (!keyword.startsWith(w)) {
            return false;
        }
        for (String other : others) {
            if (other.equals(w) || other.startsWith(w)) {
                return false;
            }
        }
        return true;
    }

    /** A syntax error at argument {@code i} of this line. */
    IosSyntaxException error(int i, String message) {
        return new IosSyntaxException(line, column(i), message);
    }
}
