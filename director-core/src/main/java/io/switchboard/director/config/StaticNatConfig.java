package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Static NAT of what the reals send on their own (IOS {@code ip slb static}, docs/transparent.md):
 * packets from a real's own address that the director host forwards, not answers to the director.
 * The kernel does it: the director writes one nftables table from this and replaces it whole.
 *
 * @param table   the nftables table (family {@code ip}) the director owns: created at start, replaced
 *                at each change, deleted at stop
 * @param entries one per IOS {@code ip slb static} block, in the document's order
 */
public record StaticNatConfig(String table, List<Entry> entries) {

    public static final String DEFAULT_TABLE = "switchboard_static";
    public static final StaticNatConfig NONE = new StaticNatConfig(DEFAULT_TABLE, List.of());

    public StaticNatConfig {
        entries = List.copyOf(entries);
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * What {@code address: virtual} means for {@code real}: the listen address of each virtual server
     * whose farm or client farms hold it, by virtual server name. Static NAT needs exactly one address
     * (the configuration loader and {@code import-ios} both refuse more or none).
     */
    public static java.util.Map<String, InetAddress> virtualAddresses(InetAddress real,
            java.util.Map<String, FarmConfig> farms, java.util.Map<String, VirtualServerConfig> servers) {
        java.util.Map<String, InetAddress> found = new java.util.LinkedHashMap<>();
        for (VirtualServerConfig vs : servers.values()) {
            List<String> used = new java.util.ArrayList<>(List.of(vs.farm()));
            vs.clientFarms().forEach(cf -> used.add(cf.farm()));
            boolean holds = used.stream().map(farms::get).filter(java.util.Objects::nonNull)
                    .flatMap(f -> f.reals().stream()).anyMatch(r -> r.address().equals(real));
            if (holds) {
                found.put(vs.name(), vs.listen().address());
            }
        }
        return found;
    }

    /** What happens to a real's own traffic. */
    public enum Action {
        /** Its source address becomes the translated address; answers are translated back (conntrack). */
        NAT("nat"),
        /** Dropped and counted. */
        DROP("drop");

        private final String configName;

        Action(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }
    }

    /**
     * One block: an action and its reals.
     *
     * @param address for {@link Action#NAT}, the address written; empty: {@code virtual}, the address of
     *                the virtual server whose farm holds each real ({@link Real#translated})
     */
    public record Entry(Action action, Optional<InetAddress> address, List<Real> reals) {

        public Entry {
            reals = List.copyOf(reals);
        }
    }

    /**
     * A real of a block (IOS {@code real ADDR [PORT]}).
     *
     * @param port       only its TCP and UDP traffic from this source port; 0 for all of its traffic
     * @param translated for {@link Action#NAT}, the source address its packets leave with (the
     *                   entry's address, or the virtual address found for it); empty for drop
     */
    public record Real(InetAddress address, int port, Optional<InetAddress> translated) {
    }
}
