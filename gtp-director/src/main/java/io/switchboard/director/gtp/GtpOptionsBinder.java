package io.switchboard.director.gtp;

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

    public static final List<String> GTP_KEYS = List.of("versions", "reassign", "resource-causes", "carrier-codes",
            "v0-tid-order", "recovery", "recovery-file", "unstick-on-delete", "session-idle", "director-addresses", "apn-maps");
    public static final List<String> APN_MAP_KEYS = List.of("apn", "farm", "priority");
    /** Labels of letters, digits and hyphens (TS 23.003 §9.1), with the pattern's * and ?. */
    private static final Pattern APN_PATTERN = Pattern.compile("[A-Za-z0-9*?-]+(\\.[A-Za-z0-9*?-]+)*");
    public static final List<String> RESOURCE_CAUSE_KEYS = List.of("v1", "v2");
    private static final Pattern CARRIER_CODE = Pattern.compile("[0-9]{5,6}");

    @Override
    public List<String> keys() {
        return List.of("gtp");
    }

    @Override
    public Optional<ServiceOptions> bind(Section virtualServer) {
        if (!virtualServer.has("gtp")) {
            return Optional.of(ServiceOptions.NONE); // the plug-in reads NONE as GtpOptions.DEFAULT
        }
        Optional<Section> opened = virtualServer.section("gtp", GTP_KEYS);
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
            Optional<Integer> read = s.integer("reassign", 0, 16);
            ok &= read.isPresent();
            reassign = read.orElse(reassign);
        }
        Set<Integer> causesV1 = d.resourceCausesV1();
        Set<Integer> causesV2 = d.resourceCausesV2();
        if (s.has("resource-causes")) {
            Optional<Section> causes = s.section("resource-causes", RESOURCE_CAUSE_KEYS);
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
            if (text.isPresent() && text.get().equals("gsm-09-60")) {
                order = GtpV0TidOrder.GSM_09_60;
            } else if (text.isPresent() && text.get().equals("libgtp")) {
                order = GtpV0TidOrder.LIBGTP_REVERSED;
            } else {
                text.ifPresent(t -> s.error(s.pathOf("v0-tid-order"),
                        "must be gsm-09-60 or libgtp, not '" + t + "'"));
                ok = false;
            }
        }
        int recovery = d.recovery();
        if (s.has("recovery")) {
            Optional<Integer> read = s.integer("recovery", 0, 255);
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
            Optional<Section> opened = Section.open(items.get().get(i), path, s.errors(), APN_MAP_KEYS);
            if (opened.isEmpty()) {
                continue;
            }
            Section m = opened.get();
            Optional<String> apn = m.require("apn", "required") ? m.string("apn") : Optional.empty();
            Optional<String> farm = m.require("farm", "required") ? m.string("farm") : Optional.empty();
            int priority = m.has("priority") ? m.integer("priority", 0, 1000).orElse(-1) : 0;
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
