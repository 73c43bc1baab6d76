package io.switchboard.director.config;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * Cluster membership. Disabled: a single node, whose sticky tables stay in memory.
 *
 * @param bind           the only local address the member binds and advertises (the node's cluster
 *                       interface); empty for all interfaces ({@code bind: any}, written out)
 * @param kubernetes     members found through Kubernetes instead of the {@code members} list; empty for
 *                       the TCP/IP member list
 * @param exposure       whether the operator acknowledged a bind to a public (or every) address
 * @param unlistedMember what this node does when a member joins from an address not in {@code members}
 */
public record ClusterConfig(boolean enabled, String name, List<String> members, int port, Optional<InetAddress> bind,
        Optional<KubernetesDiscovery> kubernetes, Exposure exposure, UnlistedMember unlistedMember) {

    /** The name a single node runs under; refused for a cluster, whose deployment names its own. */
    public static final String DEFAULT_NAME = "switchboard";

    public static final ClusterConfig SINGLE_NODE = new ClusterConfig(false, DEFAULT_NAME, List.of(), 5701);

    /**
     * Hazelcast's Kubernetes discovery, in one of its two modes: the Kubernetes API (the pods behind
     * {@code serviceName} in {@code namespace}; the pod's service account must be allowed to read
     * endpoints) or DNS lookup ({@code serviceDns}, a headless service's name). Empty strings for
     * what is not set; {@code servicePort} 0 for the cluster port.
     */
    public record KubernetesDiscovery(String namespace, String serviceName, String serviceDns, int servicePort) {
    }

    /** What a member that joined from an address not in {@code members} makes this node do. */
    public enum UnlistedMember {
        /** Log it, count it and list it on {@code /api/v1/cluster}; stay. */
        REPORT("report"),
        /** Report it, then leave at once (no hand-over to a cluster that holds a stranger). */
        LEAVE("leave");

        private final String configName;

        UnlistedMember(String configName) {
            this.configName = configName;
        }

        public String configName() {
            return configName;
        }

        public static Optional<UnlistedMember> fromConfigName(String text) {
            for (UnlistedMember m : values()) {
                if (m.configName.equals(text)) {
                    return Optional.of(m);
                }
            }
            return Optional.empty();
        }
    }

    public ClusterConfig {
        members = List.copyOf(members);
    }

    /** Joined by member list or Kubernetes; private binds only, unlisted members reported. */
    public ClusterConfig(boolean enabled, String name, List<String> members, int port, Optional<InetAddress> bind,
            Optional<KubernetesDiscovery> kubernetes) {
        this(enabled, name, members, port, bind, kubernetes, Exposure.PRIVATE, UnlistedMember.REPORT);
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
