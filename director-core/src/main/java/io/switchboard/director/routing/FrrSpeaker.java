package io.switchboard.director.routing;

import io.switchboard.director.config.BgpConfig;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * FRR: Switchboard configures bgpd through {@code vtysh}: the BGP sessions (with a BFD profile), a
 * route map adding the communities, and one {@code network} statement per served virtual address
 * (with the import check off, since the address is on the node's loopback, not in a route). Each
 * change compares what bgpd runs (its {@code network ... route-map switchboard-vip} statements, so
 * that Switchboard never touches the operator's own) with the served set, and adds and removes the
 * difference; the session commands are repeated each time, which FRR takes as no change.
 */
final class FrrSpeaker implements BgpSpeaker {

    static final String VIP_MAP = "switchboard-vip";
    static final String OUT_MAP = "switchboard-out";
    static final String IN_MAP = "switchboard-in";
    static final String BFD_PROFILE = "switchboard";
    private static final Pattern OURS = Pattern.compile("^\\s*network (\\S+) route-map " + VIP_MAP + "\\s*$",
            Pattern.MULTILINE);

    private final BgpConfig config;
    private final Duration timeout;

    FrrSpeaker(BgpConfig config, Duration timeout) {
        this.config = config;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "frr";
    }

    @Override
    public void announce(Set<InetAddress> addresses) throws IOException, InterruptedException {
        Set<String> running = networks(vtysh(List.of("show running-config bgpd")));
        List<String> lines = commands(addresses, running);
        String output = vtysh(lines);
        // vtysh reports a refused line with '%' and carries on with the next ones.
        if (output.contains("%")) {
            throw new IOException("vtysh refused part of the configuration: " + output.strip());
        }
    }

    /** Shuts the sessions down: each router withdraws what this node announced as the session ends. */
    @Override
    public List<String> withdrawAll() {
        List<String> command = new ArrayList<>(List.of("vtysh"));
        config.socket().ifPresent(dir -> command.addAll(List.of("--vty_socket", dir.toString())));
        command.addAll(List.of("-c", "configure terminal", "-c", "router bgp " + config.localAs()));
        for (BgpConfig.Neighbour n : config.neighbours()) {
            command.addAll(List.of("-c", "neighbor " + AddressText.of(n.address()) + " shutdown"));
        }
        return command;
    }

    /** The prefixes Switchboard's network statements announce in {@code runningConfig}. */
    static Set<String> networks(String runningConfig) {
        Set<String> prefixes = new TreeSet<>();
        Matcher m = OURS.matcher(runningConfig);
        while (m.find()) {
            prefixes.add(m.group(1));
        }
        return prefixes;
    }

    /** The vtysh lines that make bgpd announce {@code addresses}, given the prefixes it announces now. */
    List<String> commands(Set<InetAddress> addresses, Set<String> running) {
        List<String> c = new ArrayList<>(List.of("configure terminal"));
        if (config.bfd()) {
            long ms = config.bfdInterval().toMillis();
            c.addAll(List.of("bfd", "profile " + BFD_PROFILE, "transmit-interval " + ms, "receive-interval " + ms,
                    "detect-multiplier " + config.bfdMultiplier(), "exit", "exit"));
        }
        c.add("route-map " + VIP_MAP + " permit 10");
        List<String> standard = new ArrayList<>();
        List<String> large = new ArrayList<>();
        for (String community : config.communities()) {
            (community.split(":").length == 3 ? large : standard).add(community);
        }
        if (!standard.isEmpty()) {
            c.add("set community " + String.join(" ", standard) + " additive");
        }
        if (!large.isEmpty()) {
            c.add("set large-community " + String.join(" ", large) + " additive");
        }
        c.add("exit");
        // FRR 8 sends nothing to an eBGP neighbour without policies (RFC 8212): one each way, nothing taken in.
        c.addAll(List.of("route-map " + OUT_MAP + " permit 10", "exit", "route-map " + IN_MAP + " deny 10", "exit"));
        c.add("router bgp " + config.localAs());
        config.routerId().ifPresent(id -> c.add("bgp router-id " + AddressText.of(id)));
        c.add("no bgp network import-check");
        for (BgpConfig.Neighbour n : config.neighbours()) {
            String peer = "neighbor " + AddressText.of(n.address());
            c.add(peer + " remote-as " + n.as());
            // Undoes withdrawAll, which this node's predecessor may have run as it died.
            c.add("no " + peer + " shutdown");
            n.source().ifPresent(source -> c.add(peer + " update-source " + AddressText.of(source)));
            if (config.bfd()) {
                c.add(peer + " bfd profile " + BFD_PROFILE);
            }
        }
        family(c, "ipv4", true, addresses, running);
        family(c, "ipv6", false, addresses, running);
        c.addAll(List.of("exit", "end"));
        return c;
    }

    private void family(List<String> c, String family, boolean v4, Set<InetAddress> addresses, Set<String> running) {
        Set<String> wanted = new TreeSet<>();
        addresses.stream().filter(a -> (a instanceof Inet4Address) == v4)
                .sorted(Comparator.comparing(InetAddress::getHostAddress))
                .forEach(a -> wanted.add(AddressText.of(a) + (v4 ? "/32" : "/128")));
        List<BgpConfig.Neighbour> peers = config.neighbours().stream()
                .filter(n -> (n.address() instanceof Inet4Address) == v4).toList();
        Set<String> stale = new TreeSet<>();
        for (String prefix : running) {
            if (prefix.contains(":") != v4 && !wanted.contains(prefix)) {
                stale.add(prefix);
            }
        }
        if (peers.isEmpty() && wanted.isEmpty() && stale.isEmpty()) {
            return;
        }
        c.add("address-family " + family + " unicast");
        for (BgpConfig.Neighbour n : peers) {
            String peer = "neighbor " + AddressText.of(n.address());
            if (!v4) {
                c.add(peer + " activate");
            }
            c.add(peer + " route-map " + IN_MAP + " in");
            c.add(peer + " route-map " + OUT_MAP + " out");
        }
        for (String prefix : wanted) {
            if (!running.contains(prefix)) {
                c.add("network " + prefix + " route-map " + VIP_MAP);
            }
        }
        stale.forEach(prefix -> c.add("no network " + prefix + " route-map " + VIP_MAP));
        c.add("exit-address-family");
    }

    private String vtysh(List<String> lines) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("vtysh"));
        config.socket().ifPresent(dir -> command.addAll(List.of("--vty_socket", dir.toString())));
        for (String line : lines) {
            command.addAll(List.of("-c", line));
        }
        return ControlCommand.run(command, timeout);
    }
}
