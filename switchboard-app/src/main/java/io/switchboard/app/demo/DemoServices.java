package io.switchboard.app.demo;

import io.switchboard.director.spi.DemoScenario;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The services {@code demo --service} offers: {@code udp}, the app's own demo, then every service a
 * plug-in module registers a {@link DemoScenario} for, in class-path order. As picocli's completion
 * candidates, they are what the option's help lists.
 */
final class DemoServices implements Iterable<String> {

    static final String UDP = "udp";

    private final Map<String, DemoScenario> scenarios = new LinkedHashMap<>();

    DemoServices() {
        for (DemoScenario scenario : ServiceLoader.load(DemoScenario.class, DemoScenario.class.getClassLoader())) {
            String service = scenario.service();
            if (service.equals(UDP) || scenarios.containsKey(service)) {
                throw new IllegalStateException(scenario.getClass().getName() + " registers a demo of service '"
                        + service + "', which has one already");
            }
            scenarios.put(service, scenario);
        }
    }

    /** The scenario registered for {@code service}; empty for {@code udp} and for a service without one. */
    Optional<DemoScenario> scenario(String service) {
        return Optional.ofNullable(scenarios.get(service));
    }

    boolean offers(String service) {
        return service.equals(UDP) || scenarios.containsKey(service);
    }

    /** The services for an error message: "udp or gtp-inspect", "udp, a or b". */
    String listed() {
        List<String> names = names();
        String last = names.remove(names.size() - 1);
        return names.isEmpty() ? last : String.join(", ", names) + " or " + last;
    }

    @Override
    public Iterator<String> iterator() {
        return names().iterator();
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(UDP);
        names.addAll(scenarios.keySet());
        return names;
    }
}
