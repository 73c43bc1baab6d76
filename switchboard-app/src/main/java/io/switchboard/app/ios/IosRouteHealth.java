package io.switchboard.app.ios;

import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.RouteHealthConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Route health as IOS does it (Cisco IOS SLB Command Reference, "advertise"; IOS-SLB.md A27): a
 * virtual server's address is announced when it is put in service unless {@code no advertise} says
 * otherwise, and with {@code advertise active} only while a real serves. IOS installs a static host
 * route that the router redistributes; Switchboard runs a hook ({@code route-health.hook}), given with
 * {@code --route-health-hook}. Without one, nothing is announced: the lines asking for announcements
 * are unsupported, {@code no advertise} implied.
 */
final class IosRouteHealth {

    private IosRouteHealth() {
    }

    static RouteHealthConfig of(IosLedger ledger, List<IosVirtualServer> servers, Optional<Path> hook) {
        Map<String, Advertise> advertising = new TreeMap<>();
        for (IosVirtualServer vs : servers) {
            IosCommand line = vs.advertiseLine;
            if (hook.isPresent()) {
                vs.advertise.ifPresent(when -> advertising.put(vs.name, when));
                if (line != null) {
                    ledger.translated(line, List.of(vs.path("advertise"), "route-health.hook"));
                }
            } else if (line != null && vs.advertise.isEmpty()) {
                ledger.implied(line, "Switchboard announces no host route unless route-health is configured");
            } else if (line != null) {
                ledger.unsupported(line, "route health injection without a hook: give --route-health-hook HOOK"
                        + " (route-health.hook, run as HOOK up|down VIP NAME), or write route-health.bgp by hand");
            }
        }
        return hook.map(h -> new RouteHealthConfig(Optional.of(h), RouteHealthConfig.DEFAULT_TIMEOUT, advertising,
                Optional.empty())).orElse(RouteHealthConfig.NONE);
    }
}
