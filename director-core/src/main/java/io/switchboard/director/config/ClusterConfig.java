package io.switchboard.director.config;

import java.util.List;

/** Cluster membership. Disabled: a single node with an embedded member and nothing to configure. */
public record ClusterConfig(boolean enabled, String name, List<String> members, int port) {

    public static final ClusterConfig SINGLE_NODE = new ClusterConfig(false, "switchboard", List.of(), 5701);

    public ClusterConfig {
        members = List.copyOf(members);
    }
}
