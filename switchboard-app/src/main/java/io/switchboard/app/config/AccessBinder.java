package io.switchboard.app.config;

import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.spi.ServiceSpec;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * A virtual server's {@code access:} (IOS {@code access INTERFACE}, interface awareness: only what
 * arrives on these interfaces is served). The UDP director binds one socket per interface with
 * {@code SO_BINDTODEVICE} (see {@code AccessSockets}), which only Linux has, so elsewhere the key is
 * refused here rather than ignored at run time; so is an interface this host does not have (a typo
 * would otherwise serve nobody). The TCP director binds one listener per interface the same way.
 */
final class AccessBinder {

    /** Linux interface names: at most 15 octets (IFNAMSIZ - 1, netdevice(7)), no '/', ':' or blanks. */
    private static final Pattern INTERFACE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    private final Supplier<Set<String>> hostInterfaces;
    private final boolean linux;

    AccessBinder() {
        this(AccessBinder::interfacesOfThisHost,
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"));
    }

    AccessBinder(Supplier<Set<String>> hostInterfaces, boolean linux) {
        this.hostInterfaces = hostInterfaces;
        this.linux = linux;
    }

    /** The interfaces, empty when the key is absent; empty Optional after an error (reported on {@code s}). */
    Optional<List<String>> bind(Section s, Optional<ServiceSpec> service) {
        if (!s.has("access")) {
            return Optional.of(List.of());
        }
        Optional<List<io.switchboard.director.config.bind.YamlNode>> items = s.list("access");
        if (items.isEmpty()) {
            return Optional.empty();
        }
        String path = s.pathOf("access");
        boolean ok = true;
        if (items.get().isEmpty()) {
            s.error(path, "must list at least one interface (leave the key out to serve every interface)");
            ok = false;
        }
        if (!linux && !items.get().isEmpty()) {
            s.error(path, "access needs Linux (SO_BINDTODEVICE); this is " + System.getProperty("os.name"));
            ok = false;
        }
        Set<String> names = new LinkedHashSet<>();
        Set<String> present = null;
        List<ConfigErrorAt> problems = new ArrayList<>();
        for (int i = 0; i < items.get().size(); i++) {
            String itemPath = ConfigPath.index(path, i);
            Optional<String> name = Section.string(items.get().get(i), itemPath, s.errors());
            if (name.isEmpty()) {
                ok = false;
                continue;
            }
            String n = name.get();
            if (!INTERFACE.matcher(n).matches()) {
                problems.add(new ConfigErrorAt(itemPath, "'" + n
                        + "' is not a Linux interface name (1..15 letters, digits, '_', '.', '-', '@')"));
            } else if (!names.add(n)) {
                problems.add(new ConfigErrorAt(itemPath, "'" + n + "' listed twice"));
            } else {
                if (present == null) {
                    present = hostInterfaces.get();
                }
                if (!present.contains(n)) {
                    problems.add(new ConfigErrorAt(itemPath, "no interface '" + n + "' on this host (it has: "
                            + String.join(", ", new TreeSet<>(present)) + ")"));
                }
            }
        }
        problems.forEach(p -> s.error(p.path(), p.message()));
        return ok && problems.isEmpty() ? Optional.of(List.copyOf(names)) : Optional.empty();
    }

    private record ConfigErrorAt(String path, String message) {
    }

    /** The names of this host's (network namespace's) interfaces. */
    static Set<String> interfacesOfThisHost() {
        Set<String> names = new TreeSet<>();
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                names.add(nif.getName());
            }
        } catch (SocketException e) {
            // No list: every name is then reported missing, with the empty list saying why.
        }
        return names;
    }
}
