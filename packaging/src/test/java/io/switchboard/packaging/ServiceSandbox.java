package io.switchboard.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a systemd unit's [Service] section says about its process's identity and privileges (User=,
 * Group=, AmbientCapabilities=, CapabilityBoundingSet=, NoNewPrivileges=, ExecStart=), turned into
 * the setpriv command that gives a process the same without systemd as init: a test then runs the
 * service as the unit would, and follows the unit when it changes.
 */
final class ServiceSandbox {

    private final Map<String, List<String>> service;

    private ServiceSandbox(Map<String, List<String>> service) {
        this.service = service;
    }

    /** The unit's [Service] settings, each key with its values in order (a key may be given again). */
    static ServiceSandbox of(Path unit) throws IOException {
        Map<String, List<String>> settings = new LinkedHashMap<>();
        String section = "";
        for (String raw : Files.readAllLines(unit)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line;
            } else if (section.equals("[Service]") && line.contains("=")) {
                int eq = line.indexOf('=');
                settings.computeIfAbsent(line.substring(0, eq), k -> new ArrayList<>()).add(line.substring(eq + 1));
            }
        }
        return new ServiceSandbox(settings);
    }

    /** The last value of {@code key}, or empty. */
    String value(String key) {
        List<String> values = service.getOrDefault(key, List.of());
        return values.isEmpty() ? "" : values.get(values.size() - 1);
    }

    /** ExecStart= split into words (the unit's command has no quoting). */
    List<String> execStart() {
        return Arrays.asList(value("ExecStart").split("\\s+"));
    }

    /**
     * {@code command} run as the unit's user and group, with the unit's capabilities only, and without
     * new privileges where the unit says so.
     */
    List<String> setpriv(List<String> command) {
        List<String> caps = capabilities("AmbientCapabilities");
        String plus = caps.stream().map(c -> "+" + c).collect(Collectors.joining(","));
        // systemd starts a service with every signal at its default; a test run under nohup would pass
        // its ignored SIGHUP down, and the JVM installs no reload handler over an ignored signal.
        List<String> setpriv = new ArrayList<>(List.of("env", "--default-signal", "setpriv", "--reuid=" + value("User"),
                "--regid=" + value("Group"), "--init-groups", "--reset-env"));
        if (!caps.isEmpty()) {
            setpriv.add("--inh-caps=" + plus);
            setpriv.add("--ambient-caps=" + plus);
        }
        List<String> bounding = capabilities("CapabilityBoundingSet");
        setpriv.add("--bounding-set=-all" + bounding.stream().map(c -> ",+" + c).collect(Collectors.joining()));
        if (value("NoNewPrivileges").equals("yes")) {
            setpriv.add("--no-new-privs");
        }
        setpriv.add("--");
        setpriv.addAll(command);
        return setpriv;
    }

    /** The capabilities of a capability setting, as setpriv names them (CAP_NET_BIND_SERVICE: net_bind_service). */
    private List<String> capabilities(String key) {
        List<String> caps = new ArrayList<>();
        for (String value : service.getOrDefault(key, List.of())) {
            for (String cap : value.split("\\s+")) {
                if (!cap.isEmpty()) {
                    caps.add(cap.toLowerCase(Locale.ROOT).replaceFirst("^cap_", ""));
                }
            }
        }
        return caps;
    }
}
