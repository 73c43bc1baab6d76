package io.switchboard.app.ios;

import java.util.List;
import java.util.Optional;

/**
 * The configuration modes of IOS SLB and the commands each accepts, as the Cisco IOS SLB command
 * reference lists them (see docs/ios-slb.md). A command that opens a mode names it; IOS enters that
 * mode for the lines that follow, and a line the mode does not know is tried in the enclosing modes.
 * The command names are the full keywords: {@link #match} accepts any unambiguous prefix, as IOS does.
 */
enum IosMode {
    /** Global configuration: only {@code ip slb ...} (and {@code mls ... slb}) lines matter here. */
    GLOBAL("global configuration"),
    /** The words after {@code ip slb}. */
    SLB("ip slb"),
    FARM("server farm"),
    REAL("real server"),
    VSERVER("virtual server"),
    PROBE("probe"),
    FIREWALL_FARM("firewall farm"),
    FIREWALL_REAL("firewall farm real server"),
    FIREWALL_PROTOCOL("firewall farm protocol"),
    MAP("map"),
    DFP("DFP"),
    STATIC("static NAT");

    /** A command of a mode: its keyword and the mode it opens, if any. */
    record Command(String keyword, Optional<IosMode> opens) {
    }

    private final String title;

    IosMode(String title) {
        this.title = title;
    }

    /** How the mode is named in an error ("unknown command in server farm mode"). */
    String title() {
        return title;
    }

    List<Command> commands() {
        return switch (this) {
            case GLOBAL -> List.of();
            case SLB -> List.of(opens("serverfarm", FARM), opens("vserver", VSERVER), opens("probe", PROBE),
                    opens("firewallfarm", FIREWALL_FARM), opens("map", MAP), opens("dfp", DFP),
                    opens("static", STATIC), plain("route"), plain("timers"), plain("entries"), plain("natpool"),
                    plain("replicate"), plain("capp"), plain("maxbuffers"), plain("mode"), plain("purge"));
            case FARM -> List.of(opens("real", REAL), plain("predictor"), plain("nat"), plain("failaction"),
                    plain("probe"), plain("bindid"), plain("access"), plain("description"), plain("farm-weight"),
                    plain("kal-ap"));
            case REAL -> List.of(plain("weight"), plain("maxconns"), plain("maxclients"), plain("rate"),
                    plain("faildetect"), plain("retry"), plain("reassign"), plain("inservice"), plain("description"),
                    plain("backup"));
            case VSERVER -> List.of(plain("virtual"), plain("serverfarm"), plain("sticky"), plain("idle"),
                    plain("delay"), plain("synguard"), plain("client"), plain("advertise"), plain("access"),
                    plain("replicate"), plain("inservice"), plain("description"), plain("gtp"), plain("radius"),
                    plain("purge"), plain("hand-off"), plain("gw"), plain("slb-policy"));
            case PROBE -> List.of(plain("address"), plain("interval"), plain("faildetect"), plain("expect"),
                    plain("credentials"), plain("header"), plain("request"), plain("response"), plain("lookup"),
                    plain("port"), plain("timeout"), plain("description"));
            case FIREWALL_FARM -> List.of(opens("real", FIREWALL_REAL), opens("protocol", FIREWALL_PROTOCOL),
                    plain("predictor"), plain("access"), plain("replicate"), plain("inservice"),
                    plain("description"));
            case FIREWALL_REAL -> List.of(plain("weight"), plain("probe"), plain("inservice"), plain("description"));
            case FIREWALL_PROTOCOL -> List.of(plain("delay"), plain("idle"), plain("maxconns"), plain("sticky"));
            case MAP -> List.of(plain("apn"), plain("calling-station-id"), plain("username"));
            case DFP -> List.of(plain("agent"), plain("password"));
            case STATIC -> List.of(plain("real"));
        };
    }

    /**
     * The command {@code word} names in this mode: the exact keyword, else the only keyword it is a
     * prefix of. Empty when none; {@link Ambiguous} when several keywords start with it.
     */
    Optional<Command> match(String word) throws Ambiguous {
        String w = word.toLowerCase(java.util.Locale.ROOT);
        List<Command> all = commands();
        Optional<Command> exact = all.stream().filter(c -> c.keyword().equals(w)).findFirst();
        if (exact.isPresent()) {
            return exact;
        }
        List<Command> prefixed = all.stream().filter(c -> c.keyword().startsWith(w)).toList();
        if (prefixed.size() > 1) {
            throw new Ambiguous(prefixed.stream().map(Command::keyword).toList());
        }
        return prefixed.stream().findFirst();
    }

    /** The keywords of this mode, for "nearest known command" hints. */
    List<String> keywords() {
        return commands().stream().map(Command::keyword).toList();
    }

    /** A word that is a prefix of more than one keyword of a mode. */
    static final class Ambiguous extends Exception {
        private static final long serialVersionUID = 1L;
        private final List<String> candidates;

        Ambiguous(List<String> candidates) {
            super(null, null, false, false);
            this.candidates = List.copyOf(candidates);
        }

        List<String> candidates() {
            return candidates;
        }
    }

    private static Command opens(String keyword, IosMode mode) {
        return new Command(keyword, Optional.of(mode));
    }

    private static Command plain(String keyword) {
        return new Command(keyword, Optional.empty());
    }
}
