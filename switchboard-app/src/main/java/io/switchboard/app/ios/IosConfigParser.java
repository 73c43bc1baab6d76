package io.switchboard.app.ios;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads IOS configuration text into its {@code ip slb} command tree as IOS itself would: indentation
 * does not matter, a line unknown in the current mode is tried in the enclosing modes (so a
 * {@code real} after a real server's {@code weight} starts the next real), {@code exit} leaves one
 * mode and {@code end} all of them, {@code !} starts a comment, and every keyword may be abbreviated
 * where the abbreviation is unambiguous ({@code ip slb serv}, {@code inserv}). Lines outside IOS SLB
 * (interfaces, routing, {@code mls}) are kept aside, not read. A line inside an SLB mode that is
 * neither a command of that mode or an enclosing one nor a global IOS command is an error naming its
 * line, column and the nearest known command.
 */
public final class IosConfigParser {

    /**
     * First words of IOS global configuration commands that may follow an SLB mode in a running
     * configuration: such a line leaves the SLB modes (IOS tries it in global mode), and the lines
     * of its own mode are skipped with it.
     */
    private static final Set<String> GLOBAL_WORDS = Set.of("aaa", "access-list", "alias", "archive", "banner",
            "boot", "call-home", "cdp", "class-map", "clock", "control-plane", "crypto", "dial-peer", "diagnostic",
            "enable", "errdisable", "gprs", "hostname", "interface", "ip", "ipv6", "key", "license", "line",
            "logging", "mls", "module", "monitor", "mpls", "ntp", "object-group", "platform", "policy-map", "power",
            "radius-server", "redundancy", "route-map", "router", "service", "snmp-server", "spanning-tree",
            "tacacs-server", "track", "udld", "username", "version", "vlan", "vrf", "vtp");

    /** Why hardware-only lines are not translated. */
    static final String HARDWARE = "hardware-only (MLS/CEF switching on the Catalyst supervisor): a software"
            + " director has no such tables";
    static final String OUTSIDE = "outside ip slb: configures the router (interfaces, routing, services), not the"
            + " load balancer";

    private record Open(IosMode mode, IosCommand command) {
    }

    /**
     * Parses a whole configuration.
     *
     * @throws IosSyntaxException at the first line that is not understood
     */
    public IosConfig parse(String text) {
        List<IosCommand> top = new ArrayList<>();
        List<IosConfig.Skipped> skipped = new ArrayList<>();
        Deque<Open> stack = new ArrayDeque<>();
        boolean foreign = false;
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            int number = n + 1;
            List<IosWord> words = words(lines[n]);
            if (words.isEmpty() || words.get(0).text().startsWith("!")) {
                continue;
            }
            String trimmed = lines[n].strip();
            String first = words.get(0).text().toLowerCase(Locale.ROOT);
            if (first.equals("end") || first.equals("exit")) {
                if (first.equals("end")) {
                    stack.clear();
                } else if (!stack.isEmpty()) {
                    stack.pop();
                }
                foreign = false;
                skipped.add(new IosConfig.Skipped(number, trimmed, IosReport.Outcome.IMPLIED,
                        "leaves the mode (" + first + ")"));
                continue;
            }
            boolean negated = first.equals("no") && words.size() > 1;
            List<IosWord> body = negated ? words.subList(1, words.size()) : words;
            Optional<IosCommand> command = slbCommand(number, trimmed, negated, body, stack, top);
            if (command.isPresent()) {
                foreign = false;
                continue;
            }
            String word = body.get(0).text().toLowerCase(Locale.ROOT);
            boolean global = GLOBAL_WORDS.contains(word);
            if (!stack.isEmpty() && !global && !foreign) {
                throw unknown(number, body.get(0), stack.peek().mode());
            }
            if (global || stack.isEmpty()) {
                stack.clear();
                foreign = true;
            }
            boolean mls = word.equals("mls") || word.equals("ip") && body.size() > 1
                    && body.get(1).text().equalsIgnoreCase("cef");
            skipped.add(new IosConfig.Skipped(number, trimmed, IosReport.Outcome.IGNORED, mls ? HARDWARE : OUTSIDE));
        }
        return new IosConfig(top, skipped);
    }

    /**
     * The line as a command of the innermost mode that knows it, added to the tree and the stack
     * adjusted (a top-level one added to {@code top}); empty when no SLB mode knows it (a global line, or an error the caller reports).
     */
    private static Optional<IosCommand> slbCommand(int number, String text, boolean negated, List<IosWord> body,
            Deque<Open> stack, List<IosCommand> top) {
        List<Open> modes = new ArrayList<>(stack); // innermost first
        for (int depth = 0; depth < modes.size(); depth++) {
            Open open = modes.get(depth);
            Optional<IosMode.Command> spec = match(number, body.get(0), open.mode());
            if (spec.isPresent()) {
                for (int i = 0; i < depth; i++) {
                    stack.pop();
                }
                IosCommand command = IosCommand.of(number, text, open.mode(), spec.get().keyword(), negated,
                        body.subList(1, body.size()), end(body));
                open.command().add(command);
                if (!negated) {
                    spec.get().opens().ifPresent(mode -> stack.push(new Open(mode, command)));
                }
                return Optional.of(command);
            }
        }
        if (body.size() < 2 || !body.get(0).text().equalsIgnoreCase("ip")
                || !body.get(1).text().equalsIgnoreCase("slb")) {
            return Optional.empty();
        }
        if (body.size() < 3) {
            throw new IosSyntaxException(number, body.get(1).column() + 3, "incomplete command: ip slb needs a"
                    + " command (" + String.join(", ", IosMode.SLB.keywords()) + ")");
        }
        IosWord keyword = body.get(2);
        Optional<IosMode.Command> spec = match(number, keyword, IosMode.SLB);
        if (spec.isEmpty()) {
            throw unknown(number, keyword, IosMode.SLB);
        }
        stack.clear();
        IosCommand command = IosCommand.of(number, text, IosMode.SLB, spec.get().keyword(), negated,
                body.subList(3, body.size()), end(body));
        top.add(command);
        if (!negated) {
            spec.get().opens().ifPresent(mode -> stack.push(new Open(mode, command)));
        }
        return Optional.of(command);
    }

    /** The column just after the last word. */
    private static int end(List<IosWord> words) {
        IosWord last = words.get(words.size() - 1);
        return last.column() + last.text().length();
    }

    private static Optional<IosMode.Command> match(int number, IosWord word, IosMode mode) {
        try {
            return mode.match(word.text());
        } catch (IosMode.Ambiguous e) {
            throw new IosSyntaxException(number, word.column(), "ambiguous command '" + word.text() + "' in "
                    + mode.title() + " mode (" + String.join(", ", e.candidates()) + ")");
        }
    }

    private static IosSyntaxException unknown(int number, IosWord word, IosMode mode) {
        String where = mode == IosMode.SLB ? "ip slb" : mode.title() + " mode";
        return new IosSyntaxException(number, word.column(), "unknown command '" + word.text() + "' in " + where
                + "; nearest known command: " + nearest(word.text(), mode.keywords()));
    }

    /** The keyword closest to {@code word} by edit distance (the first of equals). */
    static String nearest(String word, List<String> keywords) {
        String best = keywords.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (String keyword : keywords) {
            int d = distance(word.toLowerCase(Locale.ROOT), keyword);
            if (d < bestDistance) {
                best = keyword;
                bestDistance = d;
            }
        }
        return best;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** The blank-separated words of a line with their 1-based columns. */
    static List<IosWord> words(String line) {
        List<IosWord> words = new ArrayList<>();
        int i = 0;
        while (i < line.length()) {
            while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i > start) {
                words.add(new IosWord(line.substring(start, i), start + 1));
            }
        }
        return words;
    }
}
