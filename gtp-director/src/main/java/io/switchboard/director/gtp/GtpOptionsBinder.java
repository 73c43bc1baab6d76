package io.switchboard.director.gtp;

import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import io.switchboard.director.spi.OptionsBinder;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code gtp:} key of {@code gtp} and {@code gtp-inspect} virtual servers, into {@link GtpOptions}.
 * A virtual server without it gets {@link ServiceOptions#NONE}, which the plug-in reads as
 * {@link GtpOptions#DEFAULT} (GTPv1 and v2).
 */
public final class GtpOptionsBinder implements OptionsBinder {

    /** Labels of letters, digits and hyphens (TS 23.003 §9.1), with the pattern's * and ?. */
    private static final Pattern APN_PATTERN = Pattern.compile("[A-Za-z0-9*?-]+(\\.[A-Za-z0-9*?-]+)*");
    private static final Pattern CARRIER_CODE = Pattern.compile("[0-9]{5,6}");
    /** How GTPv0 peers write the IMSI in the TID, by the name the configuration gives. */
    private static final java.util.Map<String, GtpV0TidOrder> TID_ORDERS = java.util.Map.of(
            "gsm-09-60", GtpV0TidOrder.GSM_09_60, "libgtp", GtpV0TidOrder.LIBGTP_REVERSED);

    public static final Schema APN_MAP = Schema.of("an APN map",
            Key.string("apn").required().note("Dot-separated labels, case-insensitive, `*` any characters, `?` one"
                    + " (`ims`, `ims*`, `*.corp`), matched against the create's APN (v0/v1 IE 131, v2 IE 71)."),
            Key.name("farm").required().note("The farm a matching create is balanced in instead of the virtual"
                    + " server's; must exist and its predictor suit the service. IMSI stickiness is per farm."),
            Key.integer("priority", 0, 1000).defaultValue(0)
                    .note("Maps are tried by ascending priority (equal ones in the order listed); the first match wins."));

    public static final Schema RESOURCE_CAUSES = Schema.of("the causes that mean \"this real has no resources\"",
            Key.list("v1", "integers 0..255").defaultValue(GtpOptions.DEFAULT_RESOURCE_CAUSES_V1)
                    .note("GTPv0/v1 causes (TS 29.060 §7.7.1)."),
            Key.list("v2", "integers 0..255").defaultValue(GtpOptions.DEFAULT_RESOURCE_CAUSES_V2)
                    .note("GTPv2 causes (TS 29.274 §8.4)."));

    public static final Schema GTP = Schema.of("the GTP settings of a `gtp` or `gtp-inspect` virtual server",
            Key.list("versions", "integers").defaultValue(GtpOptions.DEFAULT.versions())
                    .note("The GTP versions served: `[0]` (GTPv0, port 3386) or a non-empty subset of `[1, 2]` (port"
                            + " 2123); v0 and v1/v2 need separate virtual servers. Others get Version Not Supported."),
            Key.integer("reassign", 0, 16).defaultValue(GtpOptions.DEFAULT_REASSIGN)
                    .note("`gtp-inspect`: how many other reals a create rejected with a resource cause may be resent to."),
            Key.mapping("resource-causes", RESOURCE_CAUSES).byDefault("`{ v1: " + RESOURCE_CAUSES.key("v1").orElseThrow()
                    .byDefault().replace("`", "") + ", v2: " + RESOURCE_CAUSES.key("v2").orElseThrow().byDefault()
                    .replace("`", "") + " }`").note("`gtp-inspect`: keys `v1` and `v2`."),
            Key.list("carrier-codes", "strings").byDefault("`[]` (all)").note("MCC+MNC, 5 or 6 digits each"
                    + " (`\"26242\"`); a create whose IMSI starts with none of them is dropped as `gtp-carrier-code`."),
            Key.oneOf("v0-tid-order", List.copyOf(new java.util.TreeMap<>(TID_ORDERS).keySet()))
                    .defaultValue(nameOf(GtpOptions.DEFAULT.v0TidOrder()))
                    .note("How GTPv0 peers write the IMSI in the TID: in GSM 09.60 order, or byte-reversed as libgtp"
                            + " (osmo-ggsn, sgsnemu) does on little-endian hosts."),
            Key.integer("recovery", 0, 255).defaultValue(GtpOptions.DEFAULT.recovery())
                    .note("The restart counter of the director's Echo Responses (Recovery IE) without `recovery-file`."),
            Key.path("recovery-file").byDefault("none").note("A file (one per virtual server) holding the restart"
                    + " counter: read, incremented modulo 256 and written back at each start, so that peers see the"
                    + " restart; a missing file starts at 0 (written as 1)."),
            Key.bool("unstick-on-delete").defaultValue(GtpOptions.DEFAULT.unstickOnDelete())
                    .note("`gtp-inspect`: an IMSI's binding ends when its last session is deleted; `false` keeps it"
                            + " for the sticky `idle` time."),
            Key.duration("session-idle").defaultValue(GtpOptions.DEFAULT_SESSION_IDLE)
                    .note("`gtp-inspect`: a session passing no message this long ends (looked for every second, or"
                            + " every `session-idle / 64` when that is longer)."),
            Key.list("director-addresses", "IP addresses").byDefault("`[]` (the virtual address)")
                    .note("`gtp-inspect`: the addresses written into Create messages in place of the peers'"
                            + " control-plane addresses, at most one IPv4 and one IPv6 (a dual-stack v2 F-TEID gets"
                            + " both); each must reach this virtual server's socket; no wildcard. An address of a family"
                            + " without one is left as it is (`switchboard_gtp_rewrite_skipped_total`)."),
            Key.listOf("apn-maps", APN_MAP).byDefault("`[]`").note("Creates balanced in another farm by their APN."));

    private static final List<Key> DECLARATION = List.of(Key.mapping("gtp", GTP).byDefault("GTPv1 and v2, defaults below")
            .note("Only for `gtp` and `gtp-inspect` (gtp.md)."));

    private static String nameOf(GtpV0TidOrder order) {
        return TID_ORDERS.entrySet().stream().filter(e -> e.getValue() == order).findFirst().orElseThrow().getKey();
    }

    @Override
    public List<Key> declaration() {
        return DECLARATION;
    }

    @Override
    public Optional<ServiceOptions> bind(Section virtualServer) {
        if (!virtualServer.has("gtp")) {
            return Optional.of(ServiceOptions.NONE); // the plug-in reads NONE as GtpOptions.DEFAULT
        }
        Optional<Section> opened = virtualServer.section("gtp");
        if (opened.isEmpty()) {
            return Optional.empty();
        }
        Section s = opened.get();
        boolean ok = true;
        GtpOptions d = GtpOptions.DEFAULT;

        Set<Integer> versions = d.versions();
        if (s.has("versions")) {
            Optional<Set<Integer>> read = integers(s, "versions", 0, 2);
            if (read.isEmpty()) {
                ok = false;
            } else if (read.get().isEmpty()) {
                s.error(s.pathOf("versions"), "must list at least one GTP version");
                ok = false;
            } else if (read.get().contains(0) && read.get().size() > 1) {
                s.error(s.pathOf("versions"), "GTPv0 (port 3386) and GTPv1/v2 (port 2123) need separate virtual"
                        + " servers: give [0] or a subset of [1, 2]");
                ok = false;
            } else {
                versions = read.get();
            }
        }
        int reassign = d.reassign();
        if (s.has("reassign")) {
            Optional<Integer> read = s.integer("reassign");
            ok &= read.isPresent();
            reassign = read.orElse(reassign);
        }
        Set<Integer> causesV1 = d.resourceCausesV1();
        Set<Integer> causesV2 = d.resourceCausesV2();
        if (s.has("resource-causes")) {
            Optional<Section> causes = s.section("resource-causes");
            if (causes.isEmpty()) {
                ok = false;
            } else {
                if (causes.get().has("v1")) {
                    Optional<Set<Integer>> read = integers(causes.get(), "v1", 0, 255);
                    ok &= read.isPresent();
                    causesV1 = read.orElse(causesV1);
                }
                if (causes.get().has("v2")) {
                    Optional<Set<Integer>> read = integers(causes.get(), "v2", 0, 255);
                    ok &= read.isPresent();
                    causesV2 = read.orElse(causesV2);
                }
            }
        }
        List<String> carrierCodes = d.carrierCodes();
        if (s.has("carrier-codes")) {
            Optional<List<String>> read = carrierCodes(s);
            ok &= read.isPresent();
            carrierCodes = read.orElse(carrierCodes);
        }
        GtpV0TidOrder order = d.v0TidOrder();
        if (s.has("v0-tid-order")) {
            Optional<String> text = s.string("v0-tid-order");
            if (text.isPresent() && TID_ORDERS.containsKey(text.get())) {
                order = TID_ORDERS.get(text.get());
            } else {
                text.ifPresent(t -> s.error(s.pathOf("v0-tid-order"),
                        "must be gsm-09-60 or libgtp, not '" + t + "'"));
                ok = false;
            }
        }
        int recovery = d.recovery();
        if (s.has("recovery")) {
            Optional<Integer> read = s.integer("recovery");
            ok &= read.isPresent();
            recovery = read.orElse(recovery);
        }
        Optional<Path> recoveryFile = Optional.empty();
        if (s.has("recovery-file")) {
            Optional<String> text = s.string("recovery-file");
            ok &= text.isPresent();
            recoveryFile = text.map(Path::of);
        }
        boolean unstick = d.unstickOnDelete();
        if (s.has("unstick-on-delete")) {
            Optional<Boolean> read = s.bool("unstick-on-delete");
            ok &= read.isPresent();
            unstick = read.orElse(unstick);
        }
        Duration sessionIdle = d.sessionIdle();
        if (s.has("session-idle")) {
            Optional<Duration> read = s.positiveDuration("session-idle");
            ok &= read.isPresent();
            sessionIdle = read.orElse(sessionIdle);
        }
        List<InetAddress> directorAddresses = d.directorAddresses();
        if (s.has("director-addresses")) {
            Optional<List<InetAddress>> read = directorAddresses(s);
            ok &= read.isPresent();
            directorAddresses = read.orElse(directorAddresses);
        }
        List<GtpOptions.ApnMap> apnMaps = List.of();
        if (s.has("apn-maps")) {
            Optional<List<GtpOptions.ApnMap>> read = apnMaps(s);
            ok &= read.isPresent();
            apnMaps = read.orElse(apnMaps);
        }
        if (!ok) {
            return Optional.empty();
        }
        return Optional.of(new GtpOptions(versions, reassign, causesV1, causesV2, carrierCodes, order, recovery,
                recoveryFile, unstick, sessionIdle, directorAddresses, apnMaps));
    }

    /** {@code [{ apn: PATTERN, farm: NAME, priority: N }]}; the farms are checked by the loader. */
    private static Optional<List<GtpOptions.ApnMap>> apnMaps(Section s) {
        Optional<List<YamlNode>> items = s.list("apn-maps");
        if (items.isEmpty()) {
            return Optional.empty();
        }
        int before = s.errors().size();
        List<GtpOptions.ApnMap> maps = new ArrayList<>();
        for (int i = 0; i < items.get().size(); i++) {
            String path = ConfigPath.index(s.pathOf("apn-maps"), i);
            Optional<Section> opened = s.item("apn-maps", items.get(), i);
            if (opened.isEmpty()) {
                continue;
            }
            Section m = opened.get();
            Optional<String> apn = m.require("apn", "required") ? m.string("apn") : Optional.empty();
            Optional<String> farm = m.require("farm", "required") ? m.string("farm") : Optional.empty();
            int priority = m.has("priority") ? m.integer("priority").orElse(-1) : 0;
            if (apn.isPresent() && !APN_PATTERN.matcher(apn.get()).matches()) {
                m.error(m.pathOf("apn"), "'" + apn.get() + "' is no APN pattern (dot-separated labels of letters,"
                        + " digits, '-', with * and ?)");
                apn = Optional.empty();
            }
            if (apn.isPresent() && farm.isPresent() && priority >= 0) {
                maps.add(new GtpOptions.ApnMap(apn.get(), farm.get(), priority));
            }
        }
        return s.errors().size() == before ? Optional.of(maps) : Optional.empty();
    }

    /** At most one IPv4 and one IPv6 address literal. */
    private static Optional<List<InetAddress>> directorAddresses(Section s) {
        Optional<List<YamlNode>> items = s.list("director-addresses");
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<ConfigError> problems = new ArrayList<>();
        List<InetAddress> addresses = new ArrayList<>();
        for (int i = 0; i < items.get().size(); i++) {
            String path = ConfigPath.index(s.pathOf("director-addresses"), i);
            Optional<String> text = Section.string(items.get().get(i), path, problems);
            if (text.isEmpty()) {
                continue;
            }
            try {
                InetAddress address = AddressLiterals.parseAddress(text.get());
                boolean v4 = address instanceof Inet4Address;
                if (address.isAnyLocalAddress()) {
                    problems.add(new ConfigError(path, "'" + text.get() + "': peers cannot send to a wildcard address"));
                } else if (addresses.stream().anyMatch(a -> (a instanceof Inet4Address) == v4)) {
                    problems.add(new ConfigError(path, "a second " + (v4 ? "IPv4" : "IPv6")
                            + " address: give at most one of each family"));
                } else {
                    addresses.add(address);
                }
            } catch (IllegalArgumentException e) {
                problems.add(new ConfigError(path, e.getMessage()));
            }
        }
        problems.forEach(p -> s.error(p.path(), p.message()));
        return problems.isEmpty() ? Optional.of(addresses) : Optional.empty();
    }

    /** A list of distinct integers in {@code min..max}; empty after an error. */
    private static Optional<Set<Integer>> integers(Section s, String key, int min, int max) {
        Optional<List<YamlNode>> items = s.list(key);
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<ConfigError> problems = new ArrayList<>();
        Set<Integer> values = new LinkedHashSet<>();
        for (int i = 0; i < items.get().size(); i++) {
            String path = ConfigPath.index(s.pathOf(key), i);
            Optional<Integer> value = Section.integer(items.get().get(i), path, problems, min, max);
            if (value.isPresent() && !values.add(value.get())) {
                problems.add(new ConfigError(path, "listed twice: " + value.get()));
            }
        }
        problems.forEach(p -> s.error(p.path(), p.message()));
        return problems.isEmpty() ? Optional.of(values) : Optional.empty();
    }

    private static Optional<List<String>> carrierCodes(Section s) {
        Optional<List<YamlNode>> items = s.list("carrier-codes");
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<ConfigError> problems = new ArrayList<>();
        List<String> codes = new ArrayList<>();
        for (int i = 0; i < items.get().size(); i++) {
            String path = ConfigPath.index(s.pathOf("carrier-codes"), i);
            Optional<String> code = Section.string(items.get().get(i), path, problems);
            if (code.isPresent() && !CARRIER_CODE.matcher(code.get()).matches()) {
                problems.add(new ConfigError(path, "must be MCC+MNC, 5 or 6 digits (quote it: \"26242\"), not '"
                        + code.get() + "'"));
            } else {
                code.ifPresent(codes::add);
            }
        }
        problems.forEach(p -> s.error(p.path(), p.message()));
        return problems.isEmpty() ? Optional.of(codes) : Optional.empty();
    }
}
