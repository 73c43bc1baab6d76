package io.switchboard.director.staticnat;

import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StaticNatConfig.Action;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The nftables table for a {@code static-nat:} section, as {@code nft -f} reads it (nft(8)): one
 * transaction that creates the table if missing, deletes it and writes it anew, so that a change
 * never leaves half a table and never touches another table of the host.
 *
 * <p>Why these hooks: a real's own traffic to the outside is <em>forwarded</em> by the director host
 * (its gateway); what the reals answer the director itself (client NAT) or the clients' addresses
 * bound transparently (docs/transparent.md: routed to the local host) is delivered locally and passes
 * neither the forward hook nor the postrouting NAT hook, so these rules cannot touch the balanced
 * traffic. {@code snat} in the postrouting NAT hook is kept per flow by conntrack: only a flow's first
 * packet passes the NAT chain (nft(8), NAT chains), later packets and the answers are translated by
 * the connection's entry, the answers' destination back to the real. {@code drop} is in the forward
 * filter hook, for every packet.
 */
public final class NftRuleset {

    /** One rule: a real (and port) with its action, and the named counter that counts it. */
    public record Rule(Action action, InetAddress real, int port, InetAddress translated, String counter) {

        /** How the rule's counter is tagged: {@code 10.9.2.2} or {@code 10.9.2.2:53}. */
        public String realText() {
            return real.getHostAddress() + (port == 0 ? "" : ":" + port);
        }
    }

    private NftRuleset() {
    }

    /** The rules of {@code config}, in its order; counters named {@code nat_N} and {@code drop_N}. */
    public static List<Rule> rules(StaticNatConfig config) {
        List<Rule> rules = new ArrayList<>();
        for (StaticNatConfig.Entry entry : config.entries()) {
            for (StaticNatConfig.Real real : entry.reals()) {
                String counter = entry.action().configName() + "_" + rules.size();
                rules.add(new Rule(entry.action(), real.address(), real.port(), real.translated().orElse(null),
                        counter));
            }
        }
        return rules;
    }

    /** The {@code nft -f} input that replaces the table with {@code rules}. */
    public static String render(String table, List<Rule> rules) {
        StringBuilder b = new StringBuilder();
        b.append("# Written by Switchboard from static-nat: (docs/transparent.md); replaced whole at each change.\n");
        // "table" on an existing table is a no-op, so that the delete always has a table to delete.
        b.append("table ip ").append(table).append(" {}\n");
        b.append("delete table ip ").append(table).append('\n');
        b.append("table ip ").append(table).append(" {\n");
        for (Rule r : rules) {
            b.append("  counter ").append(r.counter()).append(" { }\n");
        }
        b.append("  chain forward {\n")
                .append("    type filter hook forward priority filter; policy accept;\n");
        for (Rule r : rules) {
            if (r.action() == Action.DROP) {
                b.append("    ").append(match(r)).append(" counter name \"").append(r.counter()).append("\" drop\n");
            }
        }
        b.append("  }\n");
        // Empty: older kernels run the NAT engine (which translates the answers' destination back, before
        // routing) only at hooks with a NAT chain (nftables wiki, "Performing Network Address Translation").
        b.append("  chain prerouting {\n")
                .append("    type nat hook prerouting priority dstnat; policy accept;\n")
                .append("  }\n");
        b.append("  chain postrouting {\n")
                .append("    type nat hook postrouting priority srcnat; policy accept;\n");
        for (Rule r : rules) {
            if (r.action() == Action.NAT) {
                b.append("    ").append(match(r)).append(" counter name \"").append(r.counter())
                        .append("\" snat to ").append(r.translated().getHostAddress()).append('\n');
            }
        }
        b.append("  }\n");
        b.append("}\n");
        return b.toString();
    }

    /** The packets of a rule's real: its source address, and with a port its TCP or UDP source port. */
    private static String match(Rule r) {
        String m = "ip saddr " + r.real().getHostAddress();
        if (r.port() != 0) {
            // th: the transport header's first 16 bits, the source port of TCP and UDP alike (nft(8)).
            m += " meta l4proto { tcp, udp } th sport " + r.port();
        }
        return m;
    }
}
