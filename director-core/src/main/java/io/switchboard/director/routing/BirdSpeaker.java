package io.switchboard.director.routing;

import io.switchboard.director.config.BgpConfig;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * BIRD 2: Switchboard writes a whole configuration fragment (the BGP sessions with BFD, and a static
 * protocol holding one blackhole host route per served virtual address, exported with the
 * communities) to the include file, then asks BIRD to {@code configure}. BIRD re-reads its
 * configuration and restarts only the protocols whose text changed: the static one, so the
 * sessions stay up and only the announcements change.
 */
final class BirdSpeaker implements BgpSpeaker {

    static final String STATIC4 = "switchboard_vips4";
    static final String STATIC6 = "switchboard_vips6";
    /** Both, as a pattern of BIRD's command line (quoted: a shell pattern over protocol names). */
    private static final String STATICS = "\"switchboard_vips*\"";

    private final BgpConfig config;
    private final Duration timeout;

    BirdSpeaker(BgpConfig config, Duration timeout) {
        this.config = config;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "bird";
    }

    @Override
    public void announce(Set<InetAddress> addresses) throws IOException, InterruptedException {
        Path file = config.includeFile();
        // Written beside and renamed, so that BIRD never reads half a file.
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, render(addresses), StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        String output = ControlCommand.run(birdc("configure"), timeout);
        // birdc exits 0 whatever the daemon answered: its reply says whether the file was taken.
        if (!output.contains("Reconfigured") && !output.contains("Reconfiguration in progress")) {
            throw new IOException("bird did not take " + file + ": " + output.strip());
        }
        // After a withdrawAll (this node's predecessor died), the static protocols are disabled:
        // BIRD 2.0.12 enables them again on configure, but an explicit enable does not depend on that.
        ControlCommand.run(birdc("enable", STATICS), timeout);
    }

    /** Disables the static protocols: BIRD withdraws their routes from every session at once. */
    @Override
    public List<String> withdrawAll() {
        return birdc("disable", STATICS);
    }

    private List<String> birdc(String... args) {
        List<String> command = new ArrayList<>(List.of("birdc"));
        config.socket().ifPresent(socket -> command.addAll(List.of("-s", socket.toString())));
        command.addAll(List.of(args));
        return command;
    }

    /** The include file for these served addresses. */
    String render(Set<InetAddress> addresses) {
        StringBuilder b = new StringBuilder();
        b.append("# Written by Switchboard (route-health.bgp) at each change of the served virtual addresses;\n")
                .append("# do not edit: include it from bird.conf, which has the protocol device BGP needs.\n");
        config.routerId().ifPresent(id -> b.append("router id ").append(AddressText.of(id)).append(";\n"));
        if (config.bfd()) {
            long ms = config.bfdInterval().toMillis();
            b.append("\nprotocol bfd switchboard_bfd {\n")
                    .append("    interface \"*\" {\n")
                    .append("        min rx interval ").append(ms).append(" ms;\n")
                    .append("        min tx interval ").append(ms).append(" ms;\n")
                    .append("        multiplier ").append(config.bfdMultiplier()).append(";\n")
                    .append("    };\n}\n");
        }
        staticProtocol(b, STATIC4, "ipv4", addresses, true);
        staticProtocol(b, STATIC6, "ipv6", addresses, false);
        b.append("\nfilter switchboard_export {\n")
                .append("    if proto = \"").append(STATIC4).append("\" || proto = \"").append(STATIC6)
                .append("\" then {\n");
        for (String community : config.communities()) {
            String[] parts = community.split(":");
            String attribute = parts.length == 3 ? "bgp_large_community" : "bgp_community";
            b.append("        ").append(attribute).append(".add((").append(String.join(",", parts)).append("));\n");
        }
        b.append("        accept;\n    }\n    reject;\n}\n");
        int n = 0;
        for (BgpConfig.Neighbour neighbour : config.neighbours()) {
            n++;
            boolean v4 = neighbour.address() instanceof Inet4Address;
            b.append("\nprotocol bgp switchboard_peer").append(n).append(" {\n")
                    .append("    local ");
            neighbour.source().ifPresent(source -> b.append(AddressText.of(source)).append(' '));
            b.append("as ").append(config.localAs()).append(";\n")
                    .append("    neighbor ").append(AddressText.of(neighbour.address()))
                    .append(" as ").append(neighbour.as()).append(";\n");
            if (config.bfd()) {
                b.append("    bfd on;\n");
            }
            // BIRD waits 5 s before its first connect and 60 s (up to 300) after a session error such as a
            // BFD timeout: a node back from a failure would stay unannounced that long.
            b.append("    connect delay time 1;\n    error wait time 1, 30;\n");
            b.append("    ").append(v4 ? "ipv4" : "ipv6")
                    .append(" { import none; export filter switchboard_export; };\n}\n");
        }
        return b.toString();
    }

    private static void staticProtocol(StringBuilder b, String name, String channel, Set<InetAddress> addresses,
            boolean v4) {
        b.append("\nprotocol static ").append(name).append(" {\n    ").append(channel).append(";\n");
        addresses.stream().filter(a -> (a instanceof Inet4Address) == v4)
                .sorted(Comparator.comparing(InetAddress::getHostAddress))
                .forEach(a -> b.append("    route ").append(AddressText.of(a)).append(v4 ? "/32" : "/128")
                        .append(" blackhole;\n"));
        b.append("}\n");
    }
}
