package io.switchboard.app.config;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.PersistenceConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Section;
import java.net.InetAddress;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds the node's own sections, {@code cluster} (members or Kubernetes discovery), {@code admin}
 * and {@code persistence}. All problems go to the error list given at construction.
 */
final class NodeBinder {

    private final List<ConfigError> errors;

    NodeBinder(List<ConfigError> errors) {
        this.errors = errors;
    }

    ClusterConfig cluster(Section s) {
        ClusterConfig d = ClusterConfig.SINGLE_NODE;
        boolean enabled = s.bool("enabled").orElse(d.enabled());
        String name = s.string("name").orElse(d.name());
        List<String> members = new ArrayList<>();
        s.list("members").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf("members"), i);
                Section.string(items.get(i), path, errors).ifPresent(member -> {
                    if (clusterMember(member, path)) {
                        members.add(member);
                    }
                });
            }
        });
        int port = s.integer("port", 1, 65535).orElse(d.port());
        Optional<InetAddress> bind = s.string("bind").flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                error(s.pathOf("bind"), e.getMessage());
                return Optional.empty();
            }
        });
        Optional<ClusterConfig.KubernetesDiscovery> kubernetes = s.section("kubernetes", ConfigBinder.KUBERNETES_KEYS)
                .map(this::kubernetes);
        if (kubernetes.isPresent() && !members.isEmpty()) {
            error(s.pathOf("kubernetes"), "members are found either by 'members' or by 'kubernetes', not both");
        }
        return new ClusterConfig(enabled, name, members, port, bind, kubernetes);
    }

    /** Hazelcast's Kubernetes discovery: the API mode (namespace, service-name) or DNS (service-dns). */
    private ClusterConfig.KubernetesDiscovery kubernetes(Section s) {
        String serviceDns = s.string("service-dns").orElse("");
        String serviceName = s.string("service-name").orElse("");
        String namespace = s.string("namespace").orElse("");
        if (!serviceDns.isEmpty() && !(serviceName.isEmpty() && namespace.isEmpty())) {
            error(s.pathOf("service-dns"), "service-dns (DNS lookup) excludes namespace and service-name (API lookup)");
        }
        int servicePort = s.integer("service-port", 1, 65535).orElse(0);
        return new ClusterConfig.KubernetesDiscovery(namespace, serviceName, serviceDns, servicePort);
    }

    /** A member is {@code address} or {@code address:port}; kept as written for Hazelcast. */
    private boolean clusterMember(String member, String path) {
        try {
            boolean hasPort = member.startsWith("[") ? member.contains("]:")
                    : member.indexOf(':') >= 0 && member.indexOf(':') == member.lastIndexOf(':');
            if (hasPort) {
                AddressLiterals.parseEndpoint(member);
            } else {
                AddressLiterals.parseAddress(member);
            }
            return true;
        } catch (IllegalArgumentException e) {
            error(path, e.getMessage());
            return false;
        }
    }

    AdminConfig admin(Section s) {
        AdminConfig d = AdminConfig.DEFAULT;
        boolean enabled = s.bool("enabled").orElse(d.enabled());
        Endpoint listen = s.endpoint("listen").orElse(d.listen());
        Optional<String> token = s.has("token") ? s.string("token") : d.token();
        return new AdminConfig(enabled, listen, token);
    }

    /** The snapshot file and interval; refused with a cluster, whose peers keep the bindings and sessions. */
    PersistenceConfig persistence(Section s, ClusterConfig cluster) {
        Optional<Path> file = !s.require("file", "required: the snapshot file") ? Optional.empty()
                : s.string("file").flatMap(text -> {
                    try {
                        return Optional.of(Path.of(text));
                    } catch (InvalidPathException e) {
                        error(s.pathOf("file"), "'" + text + "' is not a file path: " + e.getReason());
                        return Optional.empty();
                    }
                });
        Optional<java.time.Duration> interval = s.positiveDuration("interval");
        if (cluster.enabled()) {
            error(s.path(), "not with cluster.enabled: true: a cluster keeps the bindings and sessions on its "
                    + "peers, from which a restarted node catches up");
        }
        return new PersistenceConfig(file, interval);
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }
}
