package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Cluster membership. Disabled: a single node, whose sticky tables stay in memory.
 *
 * @param bind the only local address the member binds and advertises (the node's cluster
 *             interface); empty for all interfaces
 */
public record ClusterConfig(boolean enabled, String name, List<String> members, int port, Optional<InetAddress> bind) {

    public static final ClusterConfig SINGLE_NODE = new ClusterConfig(false, "switchboard", List.of(), 5701);

    public ClusterConfig {
        members = List.copyOf(members);
    }

    /** Bound to all interfaces. */
    public ClusterConfig(boolean enabled, String name, List<String> members, int port) {
        this(enabled, name, members, port, Optional.empty());
    }
}
