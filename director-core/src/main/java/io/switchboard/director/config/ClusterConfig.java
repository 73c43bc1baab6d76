package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Cluster membership. Disabled: a single node, whose sticky tables stay in memory.
 *
 * @param bind       the only local address the member binds and advertises (the node's cluster
 *                   interface); empty for all interfaces
 * @param kubernetes members found through Kubernetes instead of the {@code members} list; empty for
 *                   the TCP/IP member list
 */
public record ClusterConfig(boolean enabled, String name, List<String> members, int port, Optional<InetAddress> bind,
        Optional<KubernetesDiscovery> kubernetes) {

    public static final ClusterConfig SINGLE_NODE = new ClusterConfig(false, "switchboard", List.of(), 5701);

    /**
     * Hazelcast's Kubernetes discovery, in one of its two modes: the Kubernetes API (the pods behind
     * {@code serviceName} in {@code namespace}; the pod's service account must be allowed to read
     * endpoints) or DNS lookup ({@code serviceDns}, a headless service's name). Empty strings for
     * what is not set; {@code servicePort} 0 for the cluster port.
     */
    public record KubernetesDiscovery(String namespace, String serviceName, String serviceDns, int servicePort) {
    }

    public ClusterConfig {
        members = List.copyOf(members);
    }

    /** Joined by member list. */
    public ClusterConfig(boolean enabled, String name, List<String> members, int port, Optional<InetAddress> bind) {
        this(enabled, name, members, port, bind, Optional.empty());
    }

    /** Bound to all interfaces. */
    public ClusterConfig(boolean enabled, String name, List<String> members, int port) {
        this(enabled, name, members, port, Optional.empty());
    }
}
