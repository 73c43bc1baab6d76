package io.switchboard.app.config;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.Exposure;
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

    /**
     * The {@code cluster} section. A cluster's member port has no authentication of its own (Hazelcast's
     * community edition has neither member authentication nor TLS): whoever reaches it with the cluster's
     * name joins and reads every binding. So, with {@code enabled: true}, the bind is written out (an
     * address, or {@code any}), a public address needs {@code exposure: public-acknowledged}, and the
     * name is the deployment's own, never the default.
     */
    ClusterConfig cluster(Section s) {
        ClusterConfig d = ClusterConfig.SINGLE_NODE;
        boolean enabled = s.bool("enabled").orElse(d.enabled());
        String name = s.string("name").orElse(d.name());
        if (enabled && name.equals(ClusterConfig.DEFAULT_NAME)) {
            error(s.pathOf("name"), (s.has("name") ? "must not be the default '" : "required with enabled: true, not '")
                    + ClusterConfig.DEFAULT_NAME + "': each deployment names its own cluster, since any process"
                    + " presenting the name is admitted");
        }
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
        Exposure exposure = exposure(s);
        Optional<InetAddress> bind = clusterBind(s, enabled, exposure);
        ClusterConfig.UnlistedMember unlisted = s.string("unlisted-member").flatMap(text -> {
            Optional<ClusterConfig.UnlistedMember> known = ClusterConfig.UnlistedMember.fromConfigName(text);
            if (known.isEmpty()) {
                error(s.pathOf("unlisted-member"), "unknown value '" + text + "' (known: report, leave)");
            }
            return known;
        }).orElse(ClusterConfig.UnlistedMember.REPORT);
        Optional<ClusterConfig.KubernetesDiscovery> kubernetes = s.section("kubernetes")
                .map(this::kubernetes);
        if (kubernetes.isPresent() && !members.isEmpty()) {
            error(s.pathOf("kubernetes"), "members are found either by 'members' or by 'kubernetes', not both");
        }
        return new ClusterConfig(enabled, name, members, port, bind, kubernetes, exposure, unlisted);
    }

    /** {@code bind}: required with a cluster; {@code any} (every interface) or an address, private unless acknowledged. */
    private Optional<InetAddress> clusterBind(Section s, boolean enabled, Exposure exposure) {
        if (!s.has("bind")) {
            if (enabled) {
                error(s.pathOf("bind"), "required with enabled: true: the address of this node's cluster interface"
                        + " (or 'any' for every interface)");
            }
            return Optional.empty();
        }
        return s.string("bind").flatMap(text -> {
            if (text.equals("any")) {
                return Optional.empty();
            }
            try {
                InetAddress address = AddressLiterals.parseAddress(text);
                if (address.isAnyLocalAddress()) {
                    error(s.pathOf("bind"), "'" + text + "' is every interface: write 'any' to mean it");
                } else if (enabled && !Exposure.isPrivate(address) && exposure != Exposure.PUBLIC_ACKNOWLEDGED) {
                    error(s.pathOf("bind"), text + " is a public address and the cluster port has no authentication"
                            + " of its own: bind a private address (carried over IPsec, see docs/securing.md), or"
                            + " write exposure: public-acknowledged");
                }
                return Optional.of(address);
            } catch (IllegalArgumentException e) {
                error(s.pathOf("bind"), e.getMessage());
                return Optional.empty();
            }
        });
    }

    /** {@code exposure}: {@code private} (the default) or {@code public-acknowledged}. */
    private Exposure exposure(Section s) {
        return s.string("exposure").flatMap(text -> {
            Optional<Exposure> known = Exposure.fromConfigName(text);
            if (known.isEmpty()) {
                error(s.pathOf("exposure"), "unknown value '" + text + "' (known: private, public-acknowledged)");
            }
            return known;
        }).orElse(Exposure.PRIVATE);
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

    /**
     * The {@code admin} section. The API changes reals, weights and the whole configuration: a
     * listener off loopback needs a {@code token}, and one on a public (or every) address needs
     * {@code exposure: public-acknowledged}, as the cluster does.
     */
    AdminConfig admin(Section s) {
        AdminConfig d = AdminConfig.DEFAULT;
        boolean enabled = s.bool("enabled").orElse(d.enabled());
        Optional<Endpoint> listen = s.endpoint("listen");
        Optional<String> token = s.has("token") ? s.secret("token") : d.token();
        Exposure exposure = exposure(s);
        listen.ifPresent(endpoint -> {
            InetAddress address = endpoint.address();
            if (!enabled) {
                return;
            }
            if (!Exposure.isPrivate(address) && exposure != Exposure.PUBLIC_ACKNOWLEDGED) {
                error(s.pathOf("listen"), (address.isAnyLocalAddress() ? "every interface" : "a public address")
                        + ": the admin API changes reals and the configuration; listen on a private address, or"
                        + " write exposure: public-acknowledged");
            }
            if (!address.isLoopbackAddress() && !s.has("token")) {
                error(s.pathOf("token"), "required when listen is not a loopback address: anyone who reaches "
                        + endpoint + " could change the reals and the configuration");
            }
        });
        Optional<AdminConfig.Tls> tls = s.section("tls").flatMap(this::adminTls);
        return new AdminConfig(enabled, listen.orElse(d.listen()), token, exposure, tls);
    }

    /** {@code admin.tls}: a certificate chain and its key, PEM files that must make a TLS server context. */
    private Optional<AdminConfig.Tls> adminTls(Section t) {
        Optional<Path> certificate = readableFile(t, "certificate");
        Optional<Path> key = readableFile(t, "key");
        if (certificate.isEmpty() || key.isEmpty()) {
            return Optional.empty();
        }
        try {
            io.netty.handler.ssl.SslContextBuilder.forServer(certificate.get().toFile(), key.get().toFile()).build();
        } catch (javax.net.ssl.SSLException | IllegalArgumentException e) {
            error(t.path(), "the certificate and key do not make a TLS server: " + e.getMessage());
            return Optional.empty();
        }
        return Optional.of(new AdminConfig.Tls(certificate.get(), key.get()));
    }

    /** A required, readable file at {@code key}. */
    private Optional<Path> readableFile(Section t, String key) {
        if (!t.require(key, "required (a PEM file)")) {
            return Optional.empty();
        }
        Optional<Path> path = t.string(key).map(Path::of);
        if (path.isPresent() && !(java.nio.file.Files.isRegularFile(path.get())
                && java.nio.file.Files.isReadable(path.get()))) {
            error(t.pathOf(key), "cannot read " + path.get());
            return Optional.empty();
        }
        return path;
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
