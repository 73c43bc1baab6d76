package io.switchboard.app.config;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeCheck;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.DebugCaptureConfig;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.config.ServiceKind;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.StickyKind;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Binds a {@link YamlNode} tree to the configuration records, checking every value, then checks
 * what spans sections: farm references, backup chains, predictors and sticky keys against the
 * services using them, and listen endpoints shared by two virtual servers. One instance per
 * document; all problems go to the error list given at construction.
 */
final class ConfigBinder {

    static final List<String> ROOT_KEYS = List.of("cluster", "admin", "route-health", "debug-capture", "probes",
            "farms", "virtual-servers", "firewall-farms", "vpn-farms");
    static final List<String> ROUTE_HEALTH_KEYS = List.of("hook", "timeout");
    static final List<String> DEBUG_CAPTURE_KEYS = List.of("directory", "file-megabytes", "files", "queue", "start");
    static final List<String> CLUSTER_KEYS = List.of("enabled", "name", "members", "port", "bind", "kubernetes");
    static final List<String> KUBERNETES_KEYS = List.of("namespace", "service-name", "service-dns", "service-port");
    static final List<String> ADMIN_KEYS = List.of("listen", "token", "enabled");
    static final List<String> FARM_KEYS = List.of("predictor", "failure", "reals", "backup", "probes", "slow-start",
            "route-map");
    static final List<String> ROUTE_MAP_KEYS = List.of("prefix", "real");
    static final List<String> PROBE_KEYS = List.of("type", "interval", "timeout", "failures", "port", "path",
            "expect-status", "host", "name", "expect-address", "send", "expect", "secret", "user", "password",
            "home-address", "home-agent", "nai", "spi", "key", "expect-code", "version", "recovery",
            "purge-on-restart");
    /** The keys each probe type takes besides the common ones. */
    private static final Map<String, List<String>> PROBE_TYPE_KEYS = Map.of(
            "ping", List.of(), "tcp", List.of(), "http", List.of("path", "expect-status", "host"),
            "dns", List.of("name", "expect-address"), "udp", List.of("send", "expect"),
            "radius", List.of("secret", "user", "password"),
            "mip", List.of("home-address", "home-agent", "nai", "spi", "key", "expect-code"),
            "gtp-echo", List.of("version", "recovery", "purge-on-restart"));
    static final List<String> FAILURE_KEYS = List.of("numconns", "numclients", "retry");
    static final List<String> REAL_KEYS = List.of("address", "port", "weight", "maxconns", "inservice", "secret");
    static final List<String> VIRTUAL_SERVER_KEYS = ServiceOptionsBinders.withOwnedKeys(List.of("listen", "service",
            "farm", "sticky", "response-timeout", "idle", "max-datagram", "inservice", "advertise"));
    static final List<String> STICKY_KEYS = List.of("key", "keys", "idle", "netmask", "max-entries", "group");

    static final int MAX_WEIGHT = 255;

    private static final java.util.Map<ServiceKind, ServiceOptionsBinder> OPTIONS_BINDERS =
            ServiceOptionsBinders.byService();
    /** The largest UDP payload over IPv4: 65535 - 20 (IP header) - 8 (UDP header). */
    static final int MAX_DATAGRAM = 65507;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final String NAME_RULE = "must be 1..64 letters, digits, '-' or '_', starting with a letter or digit";

    private final Set<ServiceKind> availableServices;
    private final List<ConfigError> errors;

    /** Farms as far as they could be read, by name, for the cross-section checks. */
    private final Map<String, FarmDraft> farms = new LinkedHashMap<>();
    /** Every farm name in the document, even of farms too broken to read. */
    private final Set<String> farmNames = new HashSet<>();
    private final Set<String> probeNames = new HashSet<>();
    private final Set<String> advertised = new java.util.TreeSet<>();
    private final Map<String, List<String>> farmProbeRefs = new LinkedHashMap<>();
    private final Map<String, ProbeConfig> probes = new LinkedHashMap<>();
    private final Map<String, ServerDraft> servers = new LinkedHashMap<>();

    private record FarmDraft(String name, Optional<PredictorKind> predictor, Optional<String> backup,
            FarmConfig config) {
    }

    private record ServerDraft(String name, Optional<Endpoint> listen, Optional<ServiceKind> service,
            Optional<String> farm, Optional<VirtualServerConfig> config) {
    }

    ConfigBinder(Set<ServiceKind> availableServices, List<ConfigError> errors) {
        this.availableServices = availableServices;
        this.errors = errors;
    }

    /** The configuration; meaningful only if no error was added to the list. */
    Optional<SwitchboardConfig> bind(YamlNode root) {
        Optional<Section> document = Section.open(root, ConfigPath.ROOT, errors, ROOT_KEYS);
        if (document.isEmpty()) {
            return Optional.empty();
        }
        Section doc = document.get();
        ClusterConfig cluster = doc.section("cluster", CLUSTER_KEYS).map(this::cluster)
                .orElse(ClusterConfig.SINGLE_NODE);
        AdminConfig admin = doc.section("admin", ADMIN_KEYS).map(this::admin).orElse(AdminConfig.DEFAULT);
        if (doc.has("probes")) {
            readNamed(doc, "probes", "must name at least one probe", PROBE_KEYS, this::probe);
        }
        readNamed(doc, "farms", "at least one farm is required", FARM_KEYS, this::farm);
        readNamed(doc, "virtual-servers", "at least one virtual server is required", VIRTUAL_SERVER_KEYS,
                this::virtualServer);

        checkFarmReferences();
        checkProbeReferences();
        checkBackups();
        checkPredictors();
        checkListenEndpoints();

        Map<String, FarmConfig> farmConfigs = new LinkedHashMap<>();
        farms.forEach((name, farm) -> farmConfigs.put(name, farm.config()));
        Map<String, VirtualServerConfig> serverConfigs = new LinkedHashMap<>();
        servers.forEach((name, server) -> server.config().ifPresent(c -> serverConfigs.put(name, c)));
        RouteHealthConfig routeHealth = new RouteHealthConfig(
                doc.section("route-health", ROUTE_HEALTH_KEYS).flatMap(r -> r.string("hook")).map(java.nio.file.Path::of),
                doc.section("route-health", ROUTE_HEALTH_KEYS).flatMap(r -> r.positiveDuration("timeout"))
                        .orElse(RouteHealthConfig.DEFAULT_TIMEOUT),
                advertised);
        if (!advertised.isEmpty() && routeHealth.hook().isEmpty()) {
            error("route-health.hook", "required: virtual servers " + advertised + " have advertise: true");
        }
        DebugCaptureConfig debugCapture = doc.section("debug-capture", DEBUG_CAPTURE_KEYS).map(this::debugCapture)
                .orElse(DebugCaptureConfig.DEFAULT);
        DispatchedConfig dispatched = new DispatchedBinder(errors, farmConfigs, farmNames, serverConfigs).bind(doc);
        return Optional.of(new SwitchboardConfig(cluster, admin, farmConfigs, serverConfigs, probes, routeHealth,
                debugCapture, dispatched));
    }

    private void readNamed(Section doc, String key, String whenNone, List<String> knownKeys,
            BiConsumer<String, Section> reader) {
        if (!doc.has(key)) {
            doc.error(key, whenNone);
            return;
        }
        Optional<YamlNode.Mapping> entries = doc.namedEntries(key);
        if (entries.isEmpty()) {
            return;
        }
        if (entries.get().entries().isEmpty()) {
            doc.error(key, whenNone);
            return;
        }
        entries.get().entries().forEach((name, node) -> {
            String path = ConfigPath.child(key, name);
            if (!NAME.matcher(name).matches()) {
                doc.error(path, "name " + NAME_RULE);
            }
            if (key.equals("farms")) {
                farmNames.add(name);
            } else if (key.equals("probes")) {
                probeNames.add(name);
            }
            Section.open(node, path, errors, knownKeys).ifPresent(section -> reader.accept(name, section));
        });
    }

    // ---- cluster and admin ----------------------------------------------------------------------

    private ClusterConfig cluster(Section s) {
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
        Optional<ClusterConfig.KubernetesDiscovery> kubernetes = s.section("kubernetes", KUBERNETES_KEYS)
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

    private DebugCaptureConfig debugCapture(Section s) {
        DebugCaptureConfig d = DebugCaptureConfig.DEFAULT;
        java.util.Set<String> start = new java.util.LinkedHashSet<>();
        s.list("start").ifPresent(names -> {
            for (int i = 0; i < names.size(); i++) {
                String path = ConfigPath.index(s.pathOf("start"), i);
                Section.string(names.get(i), path, errors).ifPresent(name -> {
                    if (!servers.containsKey(name)) {
                        error(path, "no virtual server named '" + name + "'");
                    }
                    start.add(name);
                });
            }
        });
        return new DebugCaptureConfig(s.string("directory").map(java.nio.file.Path::of).orElse(d.directory()),
                s.integer("file-megabytes", 1, 4096).map(mb -> (long) mb << 20).orElse(d.fileBytes()),
                s.integer("files", 1, 1000).orElse(d.files()),
                s.integer("queue", 1024, 1 << 20).orElse(d.queue()),
                start);
    }

    private AdminConfig admin(Section s) {
        AdminConfig d = AdminConfig.DEFAULT;
        boolean enabled = s.bool("enabled").orElse(d.enabled());
        Endpoint listen = s.string("listen").flatMap(text -> endpoint(text, s.pathOf("listen"))).orElse(d.listen());
        Optional<String> token = s.has("token") ? s.string("token") : d.token();
        return new AdminConfig(enabled, listen, token);
    }

    // ---- farms ----------------------------------------------------------------------------------

    private void farm(String name, Section s) {
        Optional<PredictorKind> predictor = s.string("predictor").flatMap(text -> {
            Optional<PredictorKind> kind = PredictorKind.fromConfigName(text);
            if (kind.isEmpty()) {
                error(s.pathOf("predictor"), "unknown predictor '" + text + "' (known: "
                        + names(Arrays.asList(PredictorKind.values()), PredictorKind::configName) + ")");
            } else if (kind.get() == PredictorKind.ROUTE_MAP && !availableServices.contains(ServiceKind.RADIUS)) {
                // Only the RADIUS director matches the route map (against framed IPs): nothing to run it without one.
                error(s.pathOf("predictor"), "'route-map' needs the radius service, which is not available in this build");
            }
            return kind;
        });
        FailureDetection failure = s.section("failure", FAILURE_KEYS).map(this::failure)
                .orElse(FailureDetection.DEFAULT);
        List<RealConfig> reals = new ArrayList<>();
        int errorsBeforeReals = errors.size();
        if (s.require("reals", "required: a farm needs at least one real")) {
            s.list("reals").ifPresent(items -> {
                if (items.isEmpty()) {
                    error(s.pathOf("reals"), "must list at least one real");
                }
                Map<Endpoint, Integer> seen = new HashMap<>();
                for (int i = 0; i < items.size(); i++) {
                    String path = ConfigPath.index(s.pathOf("reals"), i);
                    Optional<RealConfig> real = Section.open(items.get(i), path, errors, REAL_KEYS).flatMap(this::real);
                    if (real.isPresent()) {
                        Integer first = seen.putIfAbsent(real.get().endpoint(), i);
                        if (first != null) {
                            error(path, "duplicate of reals[" + first + "] (" + real.get().endpoint() + ")");
                        }
                        reals.add(real.get());
                    }
                }
            });
        }
        Map<Subnet, Endpoint> routeMap = routeMap(s, predictor, errors.size() == errorsBeforeReals ? reals : null);
        Optional<String> backup = s.string("backup");
        List<String> farmProbes = new ArrayList<>();
        s.list("probes").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf("probes"), i);
                Section.string(items.get(i), path, errors).ifPresent(probe -> {
                    if (farmProbes.contains(probe)) {
                        error(path, "probe '" + probe + "' listed twice");
                    } else {
                        farmProbes.add(probe);
                    }
                });
            }
        });
        farmProbeRefs.put(name, farmProbes);
        Optional<java.time.Duration> slowStart = s.positiveDuration("slow-start");
        farms.put(name, new FarmDraft(name, predictor, backup,
                new FarmConfig(name, predictor.orElse(PredictorKind.ROUNDROBIN), failure, reals, backup, farmProbes,
                        slowStart, routeMap)));
    }

    /**
     * The farm's {@code route-map}: given exactly when the predictor is {@code route-map}. Each
     * prefix an IPv4 network (the RADIUS director matches it against the Framed-IP-Address), given
     * once, routed to a real of the farm. Holds the valid entries only, none with another predictor.
     *
     * @param reals the farm's reals, or null when some could not be read (membership is not checked)
     */
    private Map<Subnet, Endpoint> routeMap(Section s, Optional<PredictorKind> predictor, List<RealConfig> reals) {
        Map<Subnet, Endpoint> routes = new LinkedHashMap<>();
        boolean routeMapPredictor = predictor.isPresent() && predictor.get() == PredictorKind.ROUTE_MAP;
        boolean predictorUnreadable = s.has("predictor") && predictor.isEmpty();
        if (!s.has("route-map")) {
            if (routeMapPredictor) {
                error(s.pathOf("route-map"), "required with predictor: route-map (a list of { prefix, real })");
            }
            return routes;
        }
        if (!routeMapPredictor && !predictorUnreadable) {
            error(s.pathOf("route-map"), "only with predictor: route-map (this farm's predictor is "
                    + predictor.orElse(PredictorKind.ROUNDROBIN).configName() + ")");
        }
        s.list("route-map").ifPresent(items -> {
            if (items.isEmpty()) {
                error(s.pathOf("route-map"), "must list at least one { prefix, real }");
            }
            Map<Subnet, Integer> seen = new HashMap<>();
            for (int i = 0; i < items.size(); i++) {
                String path = ConfigPath.index(s.pathOf("route-map"), i);
                Optional<Section> item = Section.open(items.get(i), path, errors, ROUTE_MAP_KEYS);
                if (item.isEmpty()) {
                    continue;
                }
                Optional<Subnet> prefix = routePrefix(item.get());
                Optional<Endpoint> real = routeReal(item.get(), reals);
                if (prefix.isPresent()) {
                    Integer first = seen.putIfAbsent(prefix.get(), i);
                    if (first != null) {
                        error(item.get().pathOf("prefix"), "duplicate of route-map[" + first + "] (" + prefix.get() + ")");
                        continue;
                    }
                }
                if (prefix.isPresent() && real.isPresent()) {
                    routes.put(prefix.get(), real.get());
                }
            }
        });
        return routeMapPredictor ? routes : new LinkedHashMap<>();
    }

    private Optional<Subnet> routePrefix(Section r) {
        if (!r.require("prefix", "required")) {
            return Optional.empty();
        }
        return r.string("prefix").flatMap(text -> {
            try {
                Subnet prefix = AddressLiterals.parseSubnet(text);
                if (prefix.network().getAddress().length != 4) {
                    error(r.pathOf("prefix"), "must be an IPv4 prefix (it is matched against the Framed-IP-Address,"
                            + " which is IPv4)");
                    return Optional.empty();
                }
                if (AddressLiterals.hasHostBits(text)) {
                    error(r.pathOf("prefix"), "'" + text + "' has bits set below the prefix (the network is "
                            + prefix + ")");
                    return Optional.empty();
                }
                return Optional.of(prefix);
            } catch (IllegalArgumentException e) {
                error(r.pathOf("prefix"), e.getMessage());
                return Optional.empty();
            }
        });
    }

    /** The route's real: {@code ADDRESS:PORT} of a real of the farm (when {@code reals} is known). */
    private Optional<Endpoint> routeReal(Section r, List<RealConfig> reals) {
        if (!r.require("real", "required: ADDRESS:PORT of a real of this farm")) {
            return Optional.empty();
        }
        return r.string("real").flatMap(text -> endpoint(text, r.pathOf("real"))).filter(real -> {
            if (reals != null && reals.stream().noneMatch(c -> c.endpoint().equals(real))) {
                error(r.pathOf("real"), "'" + real + "' is not a real of this farm (reals: "
                        + names(reals, c -> c.endpoint().toString()) + ")");
                return false;
            }
            return true;
        });
    }

    private FailureDetection failure(Section s) {
        FailureDetection d = FailureDetection.DEFAULT;
        Optional<Integer> numconns = s.integer("numconns", 1, Integer.MAX_VALUE);
        Optional<Integer> numclients = s.integer("numclients", 1, Integer.MAX_VALUE);
        if (numconns.isPresent() && numclients.isPresent() && numclients.get() > numconns.get()) {
            error(s.pathOf("numclients"), "must not exceed numconns (" + numconns.get() + ")");
        }
        int conns = numconns.orElse(d.numconns());
        // Only numconns given: the default numclients must not exceed it (numconns 1 -> numclients 1).
        int clients = numclients.orElse(Math.min(d.numclients(), conns));
        Duration retry = s.positiveDuration("retry").orElse(d.retry());
        return new FailureDetection(conns, clients, retry);
    }

    private Optional<RealConfig> real(Section s) {
        boolean hasAddress = s.require("address", "required");
        boolean hasPort = s.require("port", "required");
        Optional<InetAddress> address = hasAddress ? s.string("address").flatMap(text -> realAddress(text,
                s.pathOf("address"))) : Optional.empty();
        Optional<Integer> port = hasPort ? s.integer("port", 1, 65535) : Optional.empty();
        int weight = s.integer("weight", 1, MAX_WEIGHT).orElse(RealConfig.DEFAULT_WEIGHT);
        OptionalInt maxconns = s.optionalInt("maxconns", 1, Integer.MAX_VALUE);
        boolean inService = s.bool("inservice").orElse(true);
        Optional<String> secret = s.string("secret");
        if (address.isEmpty() || port.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RealConfig(address.get(), port.get(), weight, maxconns, inService, secret));
    }

    private Optional<InetAddress> realAddress(String text, String path) {
        try {
            InetAddress address = AddressLiterals.parseAddress(text);
            if (address.isAnyLocalAddress() || address.isMulticastAddress()) {
                error(path, "'" + text + "' is not a unicast address");
                return Optional.empty();
            }
            return Optional.of(address);
        } catch (IllegalArgumentException e) {
            error(path, e.getMessage());
            return Optional.empty();
        }
    }

    // ---- virtual servers ------------------------------------------------------------------------

    /**
     * The service's own settings, through its binder. Keys that another service's binder owns are
     * refused with the service they belong to. Empty after an error.
     */
    private Optional<ServiceOptions> options(ServiceKind service, Section s) {
        ServiceOptionsBinder binder = OPTIONS_BINDERS.get(service);
        List<String> ownKeys = binder == null ? List.of() : binder.keys();
        // Each key another service's binder owns (two services may each own one of the same name,
        // e.g. clients:) is refused once, naming every service that takes it.
        Map<String, java.util.SortedSet<String>> foreign = new LinkedHashMap<>();
        for (ServiceOptionsBinder other : ServiceOptionsBinders.all()) {
            if (other.services().contains(service)) {
                continue;
            }
            for (String key : other.keys()) {
                if (s.has(key) && !ownKeys.contains(key)) {
                    other.services().forEach(k -> foreign.computeIfAbsent(key, x -> new java.util.TreeSet<>())
                            .add(k.configName()));
                }
            }
        }
        foreign.forEach((key, services) -> error(s.pathOf(key), "only for service "
                + String.join(" or ", services) + ", not " + service.configName()));
        boolean foreignKeys = !foreign.isEmpty();
        Optional<ServiceOptions> options = binder == null ? Optional.of(ServiceOptions.NONE) : binder.bind(s);
        return foreignKeys ? Optional.empty() : options;
    }

    private void virtualServer(String name, Section s) {
        boolean hasListen = s.require("listen", "required");
        boolean hasService = s.require("service", "required");
        boolean hasFarm = s.require("farm", "required");
        Optional<Endpoint> listen = hasListen
                ? s.string("listen").flatMap(text -> endpoint(text, s.pathOf("listen"))) : Optional.empty();
        Optional<ServiceKind> service = hasService ? s.string("service").flatMap(text -> service(text,
                s.pathOf("service"))) : Optional.empty();
        Optional<String> farm = hasFarm ? s.string("farm") : Optional.empty();
        Optional<StickyConfig> sticky = Optional.empty();
        boolean stickyValid = true;
        if (s.has("sticky")) {
            Optional<Section> section = s.section("sticky", STICKY_KEYS);
            sticky = section.flatMap(sec -> sticky(sec, service));
            stickyValid = sticky.isPresent();
        }
        Duration responseTimeout = s.positiveDuration("response-timeout")
                .orElse(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT);
        Duration idle = s.positiveDuration("idle").orElse(VirtualServerConfig.DEFAULT_IDLE);
        int maxDatagram = s.integer("max-datagram", 1, MAX_DATAGRAM).orElse(VirtualServerConfig.DEFAULT_MAX_DATAGRAM);
        boolean inService = s.bool("inservice").orElse(true);
        if (s.bool("advertise").orElse(false)) {
            advertised.add(name);
        }
        Optional<ServiceOptions> options = service.flatMap(kind -> options(kind, s));

        Optional<VirtualServerConfig> config = Optional.empty();
        if (listen.isPresent() && service.isPresent() && farm.isPresent() && stickyValid && options.isPresent()) {
            config = Optional.of(new VirtualServerConfig(name, listen.get(), service.get(), farm.get(), sticky,
                    responseTimeout, idle, maxDatagram, inService, options.get()));
        }
        servers.put(name, new ServerDraft(name, listen, service, farm, config));
    }

    /** The service kind when it exists in the schema, even if this build lacks it (that is reported). */
    private Optional<ServiceKind> service(String text, String path) {
        Optional<ServiceKind> kind = ServiceKind.fromConfigName(text);
        if (kind.isEmpty()) {
            error(path, "unknown service '" + text + "' (known: "
                    + names(Arrays.asList(ServiceKind.values()), ServiceKind::configName) + ")");
        } else if (!availableServices.contains(kind.get())) {
            String available = availableServices.isEmpty() ? "none"
                    : names(availableServices, ServiceKind::configName);
            error(path, "service '" + text + "' is not available in this build (available: " + available + ")");
        }
        return kind;
    }

    private Optional<StickyConfig> sticky(Section s, Optional<ServiceKind> service) {
        int before = errors.size();
        if (service.isPresent() && service.get().allowedStickyKeys().isEmpty()) {
            error(s.path(), "service '" + service.get().configName() + "' does not support sticky");
            return Optional.empty();
        }
        List<StickyKind> keys = new ArrayList<>();
        if (s.has("key") && s.has("keys")) {
            error(s.path(), "give either key or keys, not both");
        } else if (s.has("key")) {
            s.string("key").flatMap(text -> stickyKind(text, s.pathOf("key"), service)).ifPresent(keys::add);
        } else if (s.has("keys")) {
            s.list("keys").ifPresent(items -> {
                if (items.isEmpty()) {
                    error(s.pathOf("keys"), "must list at least one key");
                }
                for (int i = 0; i < items.size(); i++) {
                    String path = ConfigPath.index(s.pathOf("keys"), i);
                    Section.string(items.get(i), path, errors).flatMap(text -> stickyKind(text, path, service))
                            .ifPresent(kind -> {
                                if (keys.contains(kind)) {
                                    error(path, "duplicate key '" + kind.configName() + "'");
                                } else {
                                    keys.add(kind);
                                }
                            });
                }
            });
        } else if (service.isPresent()) {
            if (service.get().allows(StickyKind.CLIENT_ADDRESS)) {
                keys.add(StickyKind.CLIENT_ADDRESS);
            } else {
                error(s.pathOf("key"), "required for service '" + service.get().configName() + "' (allowed: "
                        + names(service.get().allowedStickyKeys(), StickyKind::configName) + ")");
            }
        }
        Optional<Duration> idle = s.require("idle", "required") ? s.positiveDuration("idle") : Optional.empty();
        OptionalInt netmaskBits = OptionalInt.empty();
        if (s.has("netmask")) {
            Optional<String> netmask = s.string("netmask");
            if (netmask.isPresent()) {
                try {
                    netmaskBits = OptionalInt.of(AddressLiterals.parseNetmaskBits(netmask.get()));
                } catch (IllegalArgumentException e) {
                    error(s.pathOf("netmask"), e.getMessage());
                }
            }
            if (!keys.isEmpty() && !keys.contains(StickyKind.CLIENT_ADDRESS)) {
                error(s.pathOf("netmask"), "applies only to the client-address key");
            }
        }
        int maxEntries = s.integer("max-entries", 1, Integer.MAX_VALUE).orElse(StickyConfig.DEFAULT_MAX_ENTRIES);
        Optional<String> group = s.has("group") ? s.string("group") : Optional.empty();
        if (group.isPresent() && group.get().isBlank()) {
            error(s.pathOf("group"), "must not be empty");
        }
        if (errors.size() > before || idle.isEmpty() || keys.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new StickyConfig(keys, idle.get(), netmaskBits, maxEntries, group));
    }

    private Optional<StickyKind> stickyKind(String text, String path, Optional<ServiceKind> service) {
        Optional<StickyKind> kind = StickyKind.fromConfigName(text);
        if (kind.isEmpty()) {
            error(path, "unknown sticky key '" + text + "' (known: "
                    + names(Arrays.asList(StickyKind.values()), StickyKind::configName) + ")");
        } else if (service.isPresent() && !service.get().allows(kind.get())) {
            error(path, "sticky key '" + text + "' is not allowed for service '" + service.get().configName()
                    + "' (allowed: " + names(service.get().allowedStickyKeys(), StickyKind::configName) + ")");
            return Optional.empty();
        }
        return kind;
    }

    // ---- probes -------------------------------------------------------------------------------

    private void probe(String name, Section s) {
        if (!s.require("type", "required: one of " + String.join(", ", PROBE_TYPE_KEYS.keySet().stream().sorted().toList()))) {
            return;
        }
        Optional<String> type = s.string("type");
        if (type.isEmpty()) {
            return;
        }
        List<String> own = PROBE_TYPE_KEYS.get(type.get());
        if (own == null) {
            error(s.pathOf("type"), "unknown probe type '" + type.get() + "' (known: "
                    + String.join(", ", PROBE_TYPE_KEYS.keySet().stream().sorted().toList()) + ")");
            return;
        }
        PROBE_TYPE_KEYS.forEach((otherType, keys) -> keys.stream()
                .filter(key -> !own.contains(key) && s.has(key))
                .forEach(key -> error(s.pathOf(key), "only for probes of type " + otherType)));
        Duration interval = s.positiveDuration("interval").orElse(ProbeConfig.DEFAULT_INTERVAL);
        Duration timeout = s.positiveDuration("timeout").orElse(ProbeConfig.DEFAULT_TIMEOUT);
        int failures = s.integer("failures", 1, 100).orElse(ProbeConfig.DEFAULT_FAILURES);
        OptionalInt port = s.optionalInt("port", 1, 65535);
        Optional<ProbeCheck> check = switch (type.get()) {
            case "ping" -> Optional.of(new ProbeCheck.Ping());
            case "tcp" -> Optional.of(new ProbeCheck.TcpConnect());
            case "http" -> Optional.of(new ProbeCheck.Http(s.string("path").orElse("/"),
                    s.integer("expect-status", 100, 599).orElse(200), s.string("host")));
            case "dns" -> dnsCheck(s);
            case "radius" -> radiusCheck(s);
            case "mip" -> mobileIpCheck(s);
            case "gtp-echo" -> gtpEchoCheck(s);
            default -> udpCheck(s);
        };
        check.ifPresent(c -> probes.put(name, new ProbeConfig(name, c, interval, timeout, failures, port)));
    }

    private Optional<ProbeCheck> dnsCheck(Section s) {
        boolean hasName = s.require("name", "required for a dns probe: the name to look up");
        boolean hasAddress = s.require("expect-address", "required for a dns probe: the address the answer must hold");
        Optional<String> lookup = hasName ? s.string("name") : Optional.empty();
        Optional<InetAddress> expect = hasAddress ? s.string("expect-address").flatMap(text -> {
            try {
                return Optional.of(AddressLiterals.parseAddress(text));
            } catch (IllegalArgumentException e) {
                error(s.pathOf("expect-address"), e.getMessage());
                return Optional.empty();
            }
        }) : Optional.empty();
        return lookup.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Dns(lookup.get(), expect.get())) : Optional.empty();
    }

    /** Status-Server, or an Access-Request when {@code user} is given. */
    private Optional<ProbeCheck> radiusCheck(Section s) {
        // Without a secret of its own, the probe uses each real's secret.
        Optional<String> secret = s.has("secret") ? s.string("secret") : Optional.of("");
        Optional<String> user = s.string("user");
        Optional<String> password = s.string("password");
        if (password.isPresent() && user.isEmpty()) {
            error(s.pathOf("password"), "only with user (an Access-Request probe)");
            return Optional.empty();
        }
        return secret.map(value -> new ProbeCheck.Radius(value, user, password));
    }

    /** A Mobile IP registration probe (Home Agent Director). */
    private Optional<ProbeCheck> mobileIpCheck(Section s) {
        boolean hasHome = s.require("home-address", "required for a mip probe: the probe mobile node's home address");
        boolean hasSpi = s.require("spi", "required for a mip probe: the MN-HA security parameter index");
        boolean hasKey = s.require("key", "required for a mip probe: the MN-HA key");
        Optional<InetAddress> home = hasHome ? s.string("home-address").flatMap(t -> ipv4(t, s.pathOf("home-address")))
                : Optional.empty();
        Optional<InetAddress> agent = s.string("home-agent").flatMap(t -> ipv4(t, s.pathOf("home-agent")));
        boolean agentOk = !s.has("home-agent") || agent.isPresent();
        Optional<String> nai = s.string("nai");
        boolean naiOk = !s.has("nai") || nai.isPresent();
        if (nai.isPresent() && nai.get().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
            error(s.pathOf("nai"), "must be at most 255 bytes");
            naiOk = false;
        }
        Optional<Integer> spi = hasSpi ? s.integer("spi", 256, Integer.MAX_VALUE) : Optional.empty();
        Optional<byte[]> key = hasKey ? s.string("key").flatMap(text -> probeBytes(text, s.pathOf("key")))
                : Optional.empty();
        Optional<Integer> code = s.has("expect-code") ? s.integer("expect-code", 0, 255) : Optional.of(0);
        return home.isPresent() && agentOk && naiOk && spi.isPresent() && key.isPresent() && code.isPresent()
                ? Optional.of(new ProbeCheck.MobileIp(home.get(), agent, nai, spi.get(), key.get(), code.get()))
                : Optional.empty();
    }

    /** A GTP Echo probe with restart-counter tracking. */
    private Optional<ProbeCheck> gtpEchoCheck(Section s) {
        if (!s.require("version", "required for a gtp-echo probe: 1 (GTPv1-C, GGSNs) or 2 (GTPv2-C, PGWs/SGWs)")) {
            return Optional.empty();
        }
        Optional<Integer> version = s.integer("version", 1, 2);
        Optional<Integer> recovery = s.has("recovery") ? s.integer("recovery", 0, 255) : Optional.of(0);
        if (s.has("recovery") && version.isPresent() && version.get() == 1) {
            error(s.pathOf("recovery"), "only for version 2 (a GTPv1 Echo Request carries no Recovery)");
            return Optional.empty();
        }
        Optional<Boolean> purge = s.has("purge-on-restart") ? s.bool("purge-on-restart") : Optional.of(true);
        return version.isPresent() && recovery.isPresent() && purge.isPresent()
                ? Optional.of(new ProbeCheck.GtpEcho(version.get(), recovery.get(), purge.get())) : Optional.empty();
    }

    private Optional<InetAddress> ipv4(String text, String path) {
        try {
            InetAddress address = AddressLiterals.parseAddress(text);
            if (address instanceof java.net.Inet4Address) {
                return Optional.of(address);
            }
            error(path, "must be an IPv4 address (Mobile IPv4)");
        } catch (IllegalArgumentException e) {
            error(path, e.getMessage());
        }
        return Optional.empty();
    }

    private Optional<ProbeCheck> udpCheck(Section s) {
        boolean hasSend = s.require("send", "required for a udp probe: the bytes to send");
        boolean hasExpect = s.require("expect", "required for a udp probe: how the answer must start");
        Optional<byte[]> send = hasSend ? s.string("send").flatMap(text -> probeBytes(text, s.pathOf("send")))
                : Optional.empty();
        Optional<byte[]> expect = hasExpect ? s.string("expect").flatMap(text -> probeBytes(text, s.pathOf("expect")))
                : Optional.empty();
        return send.isPresent() && expect.isPresent()
                ? Optional.of(new ProbeCheck.Udp(send.get(), expect.get())) : Optional.empty();
    }

    /** Text as UTF-8, or {@code hex:0a0b...} for binary payloads. */
    private Optional<byte[]> probeBytes(String text, String path) {
        if (!text.startsWith("hex:")) {
            return Optional.of(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        try {
            return Optional.of(java.util.HexFormat.of().parseHex(text.substring(4)));
        } catch (IllegalArgumentException e) {
            error(path, "hex: must be followed by an even number of hex digits");
            return Optional.empty();
        }
    }

    private void checkProbeReferences() {
        farmProbeRefs.forEach((farm, names) -> {
            for (int i = 0; i < names.size(); i++) {
                if (!probeNames.contains(names.get(i))) {
                    error(ConfigPath.index(farmPath(farm, "probes"), i), "no probe named '" + names.get(i) + "'");
                }
            }
        });
    }

    // ---- checks across sections -----------------------------------------------------------------

    private void checkFarmReferences() {
        servers.values().forEach(server -> server.farm().ifPresent(farm -> {
            if (!farmNames.contains(farm)) {
                error(serverPath(server.name(), "farm"), "no farm named '" + farm + "'");
            }
        }));
        servers.values().forEach(server -> optionFarms(server).forEach((key, farm) -> {
            if (!farmNames.contains(farm)) {
                error(serverPath(server.name(), key), "no farm named '" + farm + "'");
            }
        }));
    }

    /** The farms a server's service options send to (GTP APN maps), by the key that names each. */
    private static Map<String, String> optionFarms(ServerDraft server) {
        return server.config().map(c -> c.options().farmReferences()).orElse(Map.of());
    }

    private void checkBackups() {
        for (FarmDraft farm : farms.values()) {
            farm.backup().ifPresent(backup -> {
                if (backup.equals(farm.name())) {
                    error(farmPath(farm.name(), "backup"), "must not be the farm itself");
                } else if (!farmNames.contains(backup)) {
                    error(farmPath(farm.name(), "backup"), "no farm named '" + backup + "'");
                }
            });
        }
        // Cycles of two or more farms; each reported once, at its first farm in document order.
        Set<String> inReportedCycle = new HashSet<>();
        for (FarmDraft start : farms.values()) {
            if (inReportedCycle.contains(start.name())) {
                continue;
            }
            List<String> chain = new ArrayList<>(List.of(start.name()));
            String next = backupOf(start.name());
            while (next != null && !chain.contains(next)) {
                chain.add(next);
                next = backupOf(next);
            }
            if (next != null && next.equals(start.name()) && chain.size() > 1) {
                inReportedCycle.addAll(chain);
                chain.add(start.name());
                error(farmPath(start.name(), "backup"), "backup cycle: " + String.join(" -> ", chain));
            }
        }
    }

    /** The backup of a farm that can be followed: exists, is read, and is not the farm itself. */
    private String backupOf(String farmName) {
        FarmDraft farm = farms.get(farmName);
        if (farm == null || farm.backup().isEmpty() || farm.backup().get().equals(farmName)) {
            return null;
        }
        return farm.backup().get();
    }

    /**
     * Every farm a virtual server can send to (its farm and that farm's backups, in order) must use
     * a predictor the server's service allows. Reported at the farm's predictor, naming the server.
     */
    private void checkPredictors() {
        for (ServerDraft server : servers.values()) {
            if (server.service().isEmpty() || server.farm().isEmpty()) {
                continue;
            }
            ServiceKind service = server.service().get();
            Set<String> visited = new LinkedHashSet<>();
            List<String> starts = new ArrayList<>(List.of(server.farm().get()));
            starts.addAll(optionFarms(server).values());
            for (String start : starts) {
                for (String farmName = start; farmName != null && visited.add(farmName);
                        farmName = backupOf(farmName)) {
                    FarmDraft farm = farms.get(farmName);
                    if (farm == null || farm.predictor().isEmpty() || service.allows(farm.predictor().get())) {
                        continue;
                    }
                    String how = farmName.equals(server.farm().get()) ? ""
                            : farmName.equals(start) ? " through its options"
                            : " through the backup chain of farm '" + start + "'";
                    error(farmPath(farmName, "predictor"), "'" + farm.predictor().get().configName()
                            + "' is not allowed for virtual server '" + server.name() + "'" + how + " (service "
                            + service.configName() + " allows: "
                            + names(service.allowedPredictors(), PredictorKind::configName) + ")");
                }
            }
        }
    }

    /** Two servers cannot share an address, port and transport, except port 0 (ephemeral). */
    private void checkListenEndpoints() {
        Map<List<Object>, String> used = new HashMap<>();
        for (ServerDraft server : servers.values()) {
            if (server.listen().isEmpty() || server.service().isEmpty() || server.listen().get().port() == 0) {
                continue;
            }
            String transport = server.service().get() == ServiceKind.TCP ? "tcp" : "udp";
            String first = used.putIfAbsent(List.of(server.listen().get(), transport), server.name());
            if (first != null) {
                error(serverPath(server.name(), "listen"), server.listen().get() + "/" + transport
                        + " is already used by virtual server '" + first + "'");
            }
        }
    }

    // ---- small things ---------------------------------------------------------------------------

    private Optional<Endpoint> endpoint(String text, String path) {
        try {
            return Optional.of(AddressLiterals.parseEndpoint(text));
        } catch (IllegalArgumentException e) {
            error(path, e.getMessage());
            return Optional.empty();
        }
    }

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }

    private static String farmPath(String farm, String key) {
        return ConfigPath.child(ConfigPath.child("farms", farm), key);
    }

    private static String serverPath(String server, String key) {
        return ConfigPath.child(ConfigPath.child("virtual-servers", server), key);
    }

    private static <T> String names(Collection<T> values, Function<T, String> name) {
        return values.stream().map(name).collect(Collectors.joining(", "));
    }
}
