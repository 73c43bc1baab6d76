package io.switchboard.app.config;

import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClientFarm;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.DispatchedConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PersistenceConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.RealLimits;
import io.switchboard.director.config.RemovalPolicy;
import io.switchboard.director.config.DebugCaptureConfig;
import io.switchboard.director.config.DfpConfig;
import io.switchboard.director.config.RouteHealthConfig;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.StaticNatConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.TransportKind;
import io.switchboard.director.config.OverloadConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import io.switchboard.director.spi.OptionsBinder;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.RealKey;
import io.switchboard.director.spi.ServiceSpec;
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

    static final int MAX_WEIGHT = 255;

    /** The largest UDP payload over IPv4: 65535 - 20 (IP header) - 8 (UDP header). */
    static final int MAX_DATAGRAM = 65507;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
    private static final String NAME_RULE = "must be 1..64 letters, digits, '-' or '_', starting with a letter or digit";

    private final Plugins plugins = Plugins.installed();
    private final Set<String> availableServices;
    private final List<ConfigError> errors;
    private final ProbeBinder probeBinder;
    private final NodeBinder nodeBinder;
    private final RouteMapBinder routeMapBinder;
    private final StickyBinder stickyBinder;
    private final AccessBinder accessBinder = new AccessBinder();

    /** Farms as far as they could be read, by name, for the cross-section checks. */
    private final Map<String, ConfigCrossChecks.FarmDraft> farms = new LinkedHashMap<>();
    /** Every farm name in the document, even of farms too broken to read. */
    private final Set<String> farmNames = new HashSet<>();
    private final Set<String> probeNames = new HashSet<>();
    private final Map<String, io.switchboard.director.config.Advertise> advertised = new java.util.TreeMap<>();
    private final Map<String, List<String>> farmProbeRefs = new LinkedHashMap<>();
    private final Map<String, ProbeConfig> probes = new LinkedHashMap<>();
    private final Map<String, ConfigCrossChecks.ServerDraft> servers = new LinkedHashMap<>();
    /** The top-level {@code transport}, read before the virtual servers (it limits {@code client-nat}). */
    private Optional<TransportKind> transport = Optional.empty();

    ConfigBinder(Set<String> availableServices, List<ConfigError> errors) {
        this.availableServices = availableServices;
        this.errors = errors;
        this.probeBinder = new ProbeBinder();
        this.nodeBinder = new NodeBinder(errors);
        this.routeMapBinder = new RouteMapBinder(errors);
        this.stickyBinder = new StickyBinder(errors);
    }

    /** The configuration; meaningful only if no error was added to the list. */
    Optional<SwitchboardConfig> bind(YamlNode root) {
        Optional<Section> document = Section.open(root, ConfigPath.ROOT, errors, CoreSchema.ROOT);
        if (document.isEmpty()) {
            return Optional.empty();
        }
        Section doc = document.get();
        transport = doc.string("transport").flatMap(text -> {
            Optional<TransportKind> kind = TransportKind.fromConfigName(text);
            if (kind.isEmpty()) {
                error(doc.pathOf("transport"), "unknown transport '" + text + "' (known: epoll, io_uring, nio)");
            }
            return kind;
        });
        ClusterConfig cluster = doc.section("cluster").map(nodeBinder::cluster)
                .orElse(ClusterConfig.SINGLE_NODE);
        AdminConfig admin = doc.section("admin").map(nodeBinder::admin).orElse(AdminConfig.DEFAULT);
        PersistenceConfig persistence = doc.section("persistence")
                .map(p -> nodeBinder.persistence(p, cluster)).orElse(PersistenceConfig.NONE);
        if (doc.has("probes")) {
            readNamed(doc, "probes", "must name at least one probe", this::probe);
        }
        readNamed(doc, "farms", "at least one farm is required", this::farm);
        readNamed(doc, "virtual-servers", "at least one virtual server is required", this::virtualServer);

        new ConfigCrossChecks(errors, farms, farmNames, probeNames, farmProbeRefs, servers).check();

        Map<String, FarmConfig> farmConfigs = new LinkedHashMap<>();
        farms.forEach((name, farm) -> farmConfigs.put(name, farm.config()));
        Map<String, VirtualServerConfig> serverConfigs = new LinkedHashMap<>();
        servers.forEach((name, server) -> server.config().ifPresent(c -> serverConfigs.put(name, c)));
        RouteHealthConfig routeHealth = new RouteHealthBinder(errors)
                .bind(doc.section("route-health"), advertised);
        DebugCaptureConfig debugCapture = doc.section("debug-capture").map(this::debugCapture)
                .orElse(DebugCaptureConfig.DEFAULT);
        DispatchedConfig dispatched = new DispatchedBinder(errors, farmConfigs, farmNames, serverConfigs).bind(doc);
        DfpConfig dfp = doc.section("dfp").map(new DfpBinder(errors, farmConfigs)::bind)
                .orElse(DfpConfig.NONE);
        StaticNatConfig staticNat = doc.section("static-nat").map(new StaticNatBinder(farmConfigs, serverConfigs)::bind)
                .orElse(StaticNatConfig.NONE);
        return Optional.of(new SwitchboardConfig(cluster, admin, farmConfigs, serverConfigs, probes, routeHealth,
                debugCapture, dispatched, persistence, dfp, staticNat, transport));
    }

    private void readNamed(Section doc, String key, String whenNone, BiConsumer<String, Section> reader) {
        Schema knownKeys = doc.schema().key(key).orElseThrow().child();
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

    // ---- debug capture --------------------------------------------------------------------------

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

    // ---- farms ----------------------------------------------------------------------------------

    private void farm(String name, Section s) {
        Optional<PredictorKind> predictor = s.string("predictor").flatMap(text -> {
            Optional<PredictorKind> kind = PredictorKind.fromConfigName(text);
            if (kind.isEmpty()) {
                error(s.pathOf("predictor"), "unknown predictor '" + text + "' (known: "
                        + names(Arrays.asList(PredictorKind.values()), PredictorKind::configName) + ")");
            } else if (!availableServices.isEmpty()) {
                // Only the services that declare a predictor run it (RADIUS matches the route map against
                // framed IPs): one that no service of this build runs is a mistake.
                List<String> users = plugins.services().stream().map(service -> service.spec())
                        .filter(spec -> spec.allows(kind.get())).map(ServiceSpec::name).toList();
                if (users.stream().noneMatch(availableServices::contains)) {
                    error(s.pathOf("predictor"), "'" + text + "' needs the " + (users.isEmpty() ? "a service using it"
                            : String.join(" or ", users) + " service") + ", which is not available in this build");
                }
            }
            return kind;
        });
        FailureDetection failure = s.section("failure").map(this::failure)
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
                    Optional<RealConfig> real = s.item("reals", items, i).flatMap(this::real);
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
        Map<Subnet, Endpoint> routeMap = routeMapBinder.bind(s, predictor, errors.size() == errorsBeforeReals ? reals : null);
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
        farms.put(name, new ConfigCrossChecks.FarmDraft(name, predictor, backup,
                new FarmConfig(name, predictor.orElse(PredictorKind.ROUNDROBIN), failure, reals, backup, farmProbes,
                        slowStart, routeMap)));
    }

    /**
     * The farm's {@code route-map}: given exactly when the predictor is {@code route-map}. Each
     * prefix an IPv4 or IPv6 network (the RADIUS director matches the Framed-IP-Address and the
     * Framed-IPv6-Prefix against them), given
     * once, routed to a real of the farm. Holds the valid entries only, none with another predictor.
     *
     * @param reals the farm's reals, or null when some could not be read (membership is not checked)
     */
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
        boolean inband = s.bool("inband").orElse(d.inband());
        boolean purge = s.bool("purge").orElse(d.purge());
        return new FailureDetection(conns, clients, retry, inband, purge);
    }

    private Optional<RealConfig> real(Section s) {
        boolean hasAddress = s.require("address", "required");
        boolean hasPort = s.require("port", "required");
        Optional<InetAddress> address = hasAddress ? s.string("address").flatMap(text -> realAddress(text,
                s.pathOf("address"))) : Optional.empty();
        Optional<Integer> port = hasPort ? s.integer("port", 1, 65535) : Optional.empty();
        int weight = s.integer("weight", 1, MAX_WEIGHT).orElse(RealConfig.DEFAULT_WEIGHT);
        OptionalInt maxconns = s.optionalInt("maxconns", 1, Integer.MAX_VALUE);
        RealLimits limits = new RealLimits(s.optionalInt("rate", 1, Integer.MAX_VALUE),
                s.optionalInt("maxclients", 1, Integer.MAX_VALUE));
        boolean inService = s.bool("inservice").orElse(true);
        Map<RealKey<?>, Object> values = new LinkedHashMap<>();
        for (RealKey<?> key : plugins.realKeys()) {
            if (s.has(key.name())) {
                key.bind(s).ifPresent(value -> values.put(key, value));
            }
        }
        RemovalPolicy removal = removal(s);
        if (address.isEmpty() || port.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RealConfig(address.get(), port.get(), weight, maxconns, inService, values, removal,
                limits));
    }

    /** The real's {@code on-remove} (default {@code drain}) and, with {@code drain}, its {@code drain-deadline}. */
    private RemovalPolicy removal(Section s) {
        RemovalPolicy.Mode mode = s.string("on-remove").flatMap(text -> {
            Optional<RemovalPolicy.Mode> known = RemovalPolicy.Mode.fromConfigName(text);
            if (known.isEmpty()) {
                error(s.pathOf("on-remove"), "unknown value '" + text + "' (known: "
                        + names(Arrays.asList(RemovalPolicy.Mode.values()), RemovalPolicy.Mode::configName) + ")");
            }
            return known;
        }).orElse(RemovalPolicy.DEFAULT.mode());
        Optional<Duration> deadline = s.positiveDuration("drain-deadline");
        if (deadline.isPresent() && mode != RemovalPolicy.Mode.DRAIN) {
            error(s.pathOf("drain-deadline"), "only with on-remove: drain");
        }
        return new RemovalPolicy(mode, deadline);
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
    private Optional<ServiceOptions> options(ServiceSpec service, Section s) {
        List<String> ownKeys = service.options().map(OptionsBinder::keys).orElse(List.of());
        // Each key another service's binder owns (two services may each own one of the same name,
        // e.g. clients:) is refused once, naming every service that takes it.
        Map<String, java.util.SortedSet<String>> foreign = new LinkedHashMap<>();
        for (ServiceSpec other : specs()) {
            for (String key : other.options().map(OptionsBinder::keys).orElse(List.of())) {
                if (s.has(key) && !ownKeys.contains(key)) {
                    foreign.computeIfAbsent(key, x -> new java.util.TreeSet<>()).add(other.name());
                }
            }
        }
        foreign.forEach((key, services) -> error(s.pathOf(key), "only for service "
                + String.join(" or ", services) + ", not " + service.name()));
        boolean foreignKeys = !foreign.isEmpty();
        // The binder reads its keys as its own declaration has them (the variant of its service).
        Section own = s.as(s.schema().variant(service.name()));
        Optional<ServiceOptions> options = service.options().map(binder -> binder.bind(own))
                .orElse(Optional.of(ServiceOptions.NONE));
        return foreignKeys ? Optional.empty() : options;
    }

    /** The services of the installed plug-ins, in module order. */
    private static List<ServiceSpec> specs() {
        return Plugins.installed().services().stream().map(service -> service.spec()).toList();
    }

    private void virtualServer(String name, Section s) {
        boolean hasListen = s.require("listen", "required");
        boolean hasService = s.require("service", "required");
        boolean hasFarm = s.require("farm", "required");
        Optional<Endpoint> listen = hasListen
                ? s.endpoint("listen") : Optional.empty();
        Optional<ServiceSpec> service = hasService ? s.string("service").flatMap(text -> service(text,
                s.pathOf("service"))) : Optional.empty();
        Optional<String> farm = hasFarm ? s.string("farm") : Optional.empty();
        Optional<StickyConfig> sticky = Optional.empty();
        boolean stickyValid = true;
        if (s.has("sticky")) {
            Optional<Section> section = s.section("sticky");
            sticky = section.flatMap(sec -> stickyBinder.bind(sec, service));
            stickyValid = sticky.isPresent();
        }
        Duration responseTimeout = s.positiveDuration("response-timeout")
                .orElse(VirtualServerConfig.DEFAULT_RESPONSE_TIMEOUT);
        Duration idle = s.positiveDuration("idle").orElse(VirtualServerConfig.DEFAULT_IDLE);
        int maxDatagram = s.integer("max-datagram", 1, MAX_DATAGRAM).orElse(VirtualServerConfig.DEFAULT_MAX_DATAGRAM);
        boolean inService = s.bool("inservice").orElse(true);
        boolean clientNat = clientNat(s, service);
        RouteHealthBinder.advertise(s).ifPresent(when -> advertised.put(name, when));
        Optional<ServiceOptions> options = service.flatMap(kind -> options(kind, s));
        Optional<OverloadConfig> overload = s.has("overload") ? s.section("overload")
                .flatMap(o -> new OverloadBinder(errors).bind(o, service)) : Optional.of(OverloadConfig.NONE);
        Optional<List<ClientFarm>> clientFarms = new ClientFarmsBinder(errors).bind(s);
        Optional<List<String>> access = accessBinder.bind(s, service);
        if (access.isPresent() && !access.get().isEmpty() && transport.isPresent()
                && transport.get() != TransportKind.EPOLL) {
            // SO_BINDTODEVICE is set through epoll's raw socket option (AccessSockets); the other transports
            // are not known to pass it on.
            error(s.pathOf("access"), "access needs transport: epoll (SO_BINDTODEVICE), not "
                    + transport.get().configName());
        }

        Optional<VirtualServerConfig> config = Optional.empty();
        if (listen.isPresent() && service.isPresent() && farm.isPresent() && stickyValid && options.isPresent()
                && overload.isPresent() && clientFarms.isPresent() && access.isPresent()) {
            config = Optional.of(new VirtualServerConfig(name, listen.get(), service.get().name(), farm.get(), sticky,
                    responseTimeout, idle, maxDatagram, inService, options.get(), overload.get(), clientFarms.get(),
                    clientNat, access.get()));
        }
        servers.put(name, new ConfigCrossChecks.ServerDraft(name, listen, service, farm, config));
    }

    /**
     * {@code client-nat} (default on). Off, requests leave from the client's own address through the UDP
     * director's transparent sockets (docs/transparent.md); a service with a listener of its own (TCP's
     * splice) has no such sockets, so off is refused there rather than silently ignored.
     */
    private boolean clientNat(Section s, Optional<ServiceSpec> service) {
        boolean clientNat = s.bool("client-nat").orElse(true);
        if (!clientNat && service.isPresent() && service.get().transport() != ServiceSpec.Transport.UDP) {
            error(s.pathOf("client-nat"), "client-nat: false is for datagram services; service '"
                    + service.get().name() + "' is not one");
        }
        if (!clientNat && transport.equals(Optional.of(TransportKind.NIO))) {
            // ip(7) IP_TRANSPARENT is a Linux socket option that Java NIO cannot set (epoll and io_uring can).
            error(s.pathOf("client-nat"), "client-nat: false needs IP_TRANSPARENT, which transport: nio"
                    + " cannot set; write transport: epoll or io_uring");
        }
        return clientNat;
    }

    /**
     * The service a plug-in declares under {@code text}, even if this loader does not accept it
     * (that is reported).
     */
    private Optional<ServiceSpec> service(String text, String path) {
        List<String> known = plugins.services().stream().map(s -> s.spec().name()).toList();
        Optional<ServiceSpec> spec = plugins.service(text).map(s -> s.spec());
        if (spec.isEmpty()) {
            error(path, "unknown service '" + text + "' (known: " + String.join(", ", known) + ")");
        } else if (!availableServices.contains(text)) {
            List<String> available = known.stream().filter(availableServices::contains).toList();
            error(path, "service '" + text + "' is not available in this build (available: "
                    + (available.isEmpty() ? "none" : String.join(", ", available)) + ")");
        }
        return spec;
    }

    // ---- probes -------------------------------------------------------------------------------

    private void probe(String name, Section s) {
        probeBinder.bind(name, s).ifPresent(probe -> probes.put(name, probe));
    }

    // ---- small things ---------------------------------------------------------------------------

    private void error(String path, String message) {
        errors.add(new ConfigError(ConfigPath.shown(path), message));
    }

    static String farmPath(String farm, String key) {
        return ConfigPath.child(ConfigPath.child("farms", farm), key);
    }

    static String serverPath(String server, String key) {
        return ConfigPath.child(ConfigPath.child("virtual-servers", server), key);
    }

    static <T> String names(Collection<T> values, Function<T, String> name) {
        return values.stream().map(name).collect(Collectors.joining(", "));
    }
}
