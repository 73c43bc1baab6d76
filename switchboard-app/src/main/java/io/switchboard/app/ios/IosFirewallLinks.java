package io.switchboard.app.ios;

import io.switchboard.director.config.DispatchedConfig;
import java.net.InetAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a dispatched firewall farm needs that an IOS configuration does not hold: the director's
 * outside and inside interfaces, and each firewall's interface and MAC address on both legs (IOS
 * learns them by ARP). Written by the operator in the IOS manner, one line each, {@code !} for
 * comments:
 *
 * <pre>
 * FIRE1 outside eth0 inside eth1
 * FIRE1 10.1.1.2 eth2 02:00:00:00:03:01 eth3 02:00:00:00:03:02
 * </pre>
 *
 * The interface names and MAC addresses are checked by the configuration loader, as in YAML.
 */
public final class IosFirewallLinks {

    /** One firewall farm's links: the director's two interfaces and each firewall's legs, by address. */
    public record Farm(String outside, String inside, Map<InetAddress, DispatchedConfig.Firewall> firewalls) {
        public Farm {
            firewalls = Collections.unmodifiableMap(new LinkedHashMap<>(firewalls));
        }
    }

    private IosFirewallLinks() {
    }

    /** @throws IosSyntaxException at the first line that is not a links line */
    public static Map<String, Farm> parse(String text) {
        Map<String, String[]> interfaces = new LinkedHashMap<>();
        Map<String, Map<InetAddress, DispatchedConfig.Firewall>> firewalls = new LinkedHashMap<>();
        Map<String, Integer> interfaceLines = new LinkedHashMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            List<IosWord> words = IosConfigParser.words(lines[n]);
            if (words.isEmpty() || words.get(0).text().startsWith("!")) {
                continue;
            }
            IosCommand c = IosCommand.of(n + 1, lines[n].strip(), IosMode.FIREWALL_FARM, words.get(0).text(), false,
                    words.subList(1, words.size()), words.get(words.size() - 1).column()
                            + words.get(words.size() - 1).text().length());
            String farm = c.keyword();
            if (c.isKeyword(0, "outside")) {
                if (!c.isKeyword(2, "inside") || c.argCount() != 4) {
                    throw c.error(Math.min(c.argCount(), 2), "expected FARM outside INTERFACE inside INTERFACE");
                }
                if (interfaces.put(farm, new String[] {c.arg(1), c.arg(3)}) != null) {
                    throw c.error(0, "the interfaces of " + farm + " are given twice");
                }
                interfaceLines.put(farm, n + 1);
            } else {
                InetAddress address = IosValues.ipv4(c, 0);
                if (c.argCount() != 5) {
                    throw c.error(Math.min(c.argCount(), 5), "expected FARM ADDRESS OUTSIDE-INTERFACE MAC"
                            + " INSIDE-INTERFACE MAC");
                }
                var firewall = new DispatchedConfig.Firewall(address, new DispatchedConfig.Link(c.arg(1), c.arg(2)),
                        new DispatchedConfig.Link(c.arg(3), c.arg(4)));
                if (firewalls.computeIfAbsent(farm, k -> new LinkedHashMap<>()).put(address, firewall) != null) {
                    throw c.error(0, "the links of firewall " + address.getHostAddress() + " of " + farm
                            + " are given twice");
                }
            }
        }
        Map<String, Farm> farms = new LinkedHashMap<>();
        firewalls.forEach((farm, byAddress) -> {
            String[] legs = interfaces.get(farm);
            if (legs == null) {
                throw new IosSyntaxException(lines.length, 1, "firewall farm " + farm + " has firewalls but no '"
                        + farm + " outside INTERFACE inside INTERFACE' line");
            }
            farms.put(farm, new Farm(legs[0], legs[1], byAddress));
        });
        interfaces.keySet().stream().filter(f -> !farms.containsKey(f)).findFirst().ifPresent(f -> {
            throw new IosSyntaxException(interfaceLines.get(f), 1, "firewall farm " + f + " has no firewall lines");
        });
        return Collections.unmodifiableMap(farms);
    }
}
