package io.switchboard.app.config;

import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.spi.OptionsBinder;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.RealKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sections of the document, declared once (keys, types, defaults, notes): what {@link
 * ConfigBinder} opens them with and what {@code switchboard config-reference} prints. The sections
 * with a binder of their own are declared beside it (probes in {@link ProbeBinder}, route health,
 * overload, client farms, dispatched mode, DFP); the plug-ins' keys of a virtual server, a real and
 * a probe come from the installed plug-ins ({@link OptionsBinder#declaration()}, {@link
 * RealKey#key()}, {@link io.switchboard.director.spi.ProbeType#declaration()}).
 *
 * <p>A key is declared with its type, its default (or that it is required) and a note saying what it
 * does; a section opened from a declaration accepts no other key, and reading a key the declaration
 * does not name fails, so a binder cannot take a key the reference does not list.
 */
final class CoreSchema {

    // Not ConfigBinder's: its key lists are these schemas' names, so it must not be needed to build them.
    private static final List<String> PREDICTORS = java.util.Arrays.stream(
            io.switchboard.director.config.PredictorKind.values())
            .map(io.switchboard.director.config.PredictorKind::configName).toList();
    /** The services of every plug-in on the class path, built in or not. */
    private static final List<String> SERVICES = Plugins.installed().services().stream()
            .map(service -> service.spec().name()).toList();
    private static final List<String> TRANSPORTS = java.util.Arrays.stream(
            io.switchboard.director.config.TransportKind.values())
            .map(io.switchboard.director.config.TransportKind::configName).toList();
    private static final List<String> EXPOSURES = java.util.Arrays.stream(
            io.switchboard.director.config.Exposure.values())
            .map(io.switchboard.director.config.Exposure::configName).toList();
    private static final List<String> UNLISTED = java.util.Arrays.stream(
            io.switchboard.director.config.ClusterConfig.UnlistedMember.values())
            .map(io.switchboard.director.config.ClusterConfig.UnlistedMember::configName).toList();
    private static final List<String> ON_REMOVE = java.util.Arrays.stream(
            io.switchboard.director.config.RemovalPolicy.Mode.values())
            .map(io.switchboard.director.config.RemovalPolicy.Mode::configName).toList();

    static final Schema KUBERNETES = Schema.of("Kubernetes discovery of the cluster's members",
            Key.string("namespace").byDefault("the pod's own").note("API mode."),
            Key.string("service-name").byDefault("all pods of the namespace").note("API mode."),
            Key.string("service-dns").note("DNS mode (a headless service); excludes `namespace` and `service-name`."),
            Key.integer("service-port", 1, 65535).byDefault("the cluster `port`")
                    .note("The members' cluster port."));

    static final Schema CLUSTER = Schema.of("the cluster",
            Key.bool("enabled").byDefault("`false`").note("`false`: a single node with an embedded member."),
            Key.string("name").byDefault("`switchboard`")
                    .note("Cluster name; **required**, and not `switchboard`, with `enabled: true`."),
            Key.list("members", "strings").byDefault("`[]`").note("Each `address` or `address:port`; literals only."),
            Key.integer("port", 1, 65535).byDefault("`5701`").note("The port the member binds, and members'"
                    + " default port."),
            Key.address("bind").shownAs("address or `any`").byDefault("**required** with `enabled: true`")
                    .note("The one local address the member binds and advertises (the node's cluster interface);"
                            + " `any` (written out) for every interface; a public one needs `exposure: public-acknowledged`."),
            Key.mapping("kubernetes", KUBERNETES).note("Members found through Kubernetes instead of `members`."),
            Key.oneOf("exposure", EXPOSURES).byDefault("`private`").note("`public-acknowledged`: a public `bind`."),
            Key.oneOf("unlisted-member", UNLISTED).byDefault("`report`")
                    .note("A member joining from an address not in `members` is reported (log,"
                            + " `switchboard_cluster_unlisted_members_total`, `/api/v1/cluster`); `leave`: the node also"
                            + " leaves the cluster and the process exits (status 3)."));

    static final Schema ADMIN_TLS = Schema.of("HTTPS for the admin API",
            Key.path("certificate").required().note("The server's certificate chain, PEM."),
            Key.path("key").required().note("Its private key, PEM (PKCS#8 or the algorithm's traditional form)."));

    static final Schema ADMIN = Schema.of("the REST API, `/metrics` and `/health`",
            Key.endpoint("listen").byDefault("`127.0.0.1:8080`")
                    .note("A public or wildcard address needs `exposure: public-acknowledged`."),
            Key.secret("token").note("API calls need `Authorization: Bearer TOKEN` (compared in constant time);"
                    + " `/health` and `/metrics` stay open. **Required** when `listen` is not a loopback address."),
            Key.bool("enabled").byDefault("`true`").note("`false`: no admin API (no metrics, health or status page)."),
            Key.oneOf("exposure", EXPOSURES).byDefault("`private`").note("As the cluster's."),
            Key.mapping("tls", ADMIN_TLS).byDefault("none: HTTP").note("HTTPS instead of HTTP."));

    static final Schema PERSISTENCE = Schema.of("a lone node's snapshot of its bindings and sessions",
            Key.path("file").required().note("The snapshot's path; its directory must be writable."),
            Key.duration("interval").byDefault("none: only at shutdown").note("Also write a snapshot this often."));

    static final Schema DEBUG_CAPTURE = Schema.of("what the live director receives and sends, to pcapng files",
            Key.path("directory").byDefault("see capture-tools.md").note("Where the capture files are written."),
            Key.integer("file-megabytes", 1, 4096).byDefault("see capture-tools.md").note("Size of one file."),
            Key.integer("files", 1, 1000).byDefault("see capture-tools.md").note("Files kept (oldest removed)."),
            Key.integer("queue", 1024, 1 << 20).byDefault("see capture-tools.md").note("Packets queued to the writer."),
            Key.list("start", "virtual-server names").byDefault("`[]`").note("Captured from start-up."));

    static final Schema FAILURE = Schema.of("in-band failure detection (IOS `faildetect`)",
            Key.integer("numconns", 1, Integer.MAX_VALUE).byDefault("`8`")
                    .note("Consecutive unanswered requests that fail a real."),
            Key.integer("numclients", 1, Integer.MAX_VALUE).byDefault("`2`, never more than `numconns`")
                    .note("Distinct clients among them; at most `numconns`."),
            Key.duration("retry").byDefault("`60s`").note("After this a failed real is offered one request."),
            Key.bool("inband").byDefault("`true`")
                    .note("`false`: only probes fail a real, unanswered requests do not (IOS `no faildetect inband`)."),
            Key.bool("purge").byDefault("`false`")
                    .note("A failed real's bindings and sessions are removed at once (IOS `failaction purge`)."));

    static final Schema ROUTE_MAP = Schema.of("a route-map entry",
            Key.string("prefix").required().note("`ADDRESS/PREFIX`, e.g. `10.1.0.0/16` (`0.0.0.0/0` catches the rest"
                    + " of IPv4) or `2001:db8:8::/48` (matched against the Framed-IPv6-Prefix; the families never match"
                    + " each other); no bits set below the prefix, each prefix once."),
            Key.endpoint("real").required().note("`ADDRESS:PORT` of a real of this farm."));

    static final Schema REAL = Schema.of("a real of a farm", withRealKeys(List.of(
            Key.address("address").required().note("A unicast literal: not `0.0.0.0`/`::`, not multicast."),
            Key.integer("port", 1, 65535).required().note("The real's port."),
            Key.integer("weight", 1, ConfigBinder.MAX_WEIGHT).byDefault("`8`")
                    .note("Weight 0 exists only at run time, set through the API."),
            Key.integer("maxconns", 1, Integer.MAX_VALUE).byDefault("no limit")
                    .note("In-flight transactions (datagram services) or connections (tcp)."),
            Key.bool("inservice").byDefault("`true`").note("`false` starts the real OUTOFSERVICE."),
            Key.oneOf("on-remove", ON_REMOVE).byDefault("`drain`")
                    .note("What a reload removing the real does with its subscribers (operations.md): `drain` keeps"
                            + " its bindings and sessions until none is left, `reassign` moves them at once."),
            Key.duration("drain-deadline").note("With `on-remove: drain`: what is left then is moved or released."),
            Key.integer("rate", 1, Integer.MAX_VALUE).byDefault("no limit")
                    .note("New bindings or connections per second this node gives the real (IOS `rate`)."),
            Key.integer("maxclients", 1, Integer.MAX_VALUE).byDefault("no limit")
                    .note("Sticky clients bound to the real, counted over the cluster (IOS `maxclients`)."))));

    static final Schema FARM = Schema.of("a farm of reals",
            Key.oneOf("predictor", PREDICTORS).byDefault("`roundrobin`")
                    .note("Must be allowed by the service of every virtual server using the farm."),
            Key.mapping("failure", FAILURE).byDefault("`numconns: 8, numclients: 2, retry: 60s`")
                    .note("In-band failure detection."),
            Key.listOf("reals", REAL).required().note("At least one; no two with the same address and port."),
            Key.name("backup").note("A farm taking over when this one has no real in service; must exist, not be the"
                    + " farm itself, and backups must not form a cycle."),
            Key.list("probes", "probe names").note("Probes run against every real; each defined under `probes`."),
            Key.duration("slow-start").note("A real entering service takes a share of new work growing to all."),
            Key.listOf("route-map", ROUTE_MAP).note("**Required** with `predictor: route-map`, refused otherwise."));

    static final Schema STICKY = Schema.of("a virtual server's stickiness",
            Key.string("key").shownAs("sticky key").byDefault("`client-address` for `udp` and `tcp`, else **required**")
                    .note("One key."),
            Key.list("keys", "sticky keys").note("Several keys, tried in order; give `key` or `keys`, not both."),
            Key.duration("idle").required().note("An unused binding expires after this time (IOS `sticky S`,"
                    + " `idle gtp imsi`, `idle radius framed-ip`, `idle asn msid`)."),
            Key.string("netmask").shownAs("IPv4 netmask").note("Only with `client-address`: a subnet shares a binding."),
            Key.integer("max-entries", 1, Integer.MAX_VALUE).byDefault("`1000000`")
                    .note("Bindings the table holds; when full, new keys are not bound (they are still served)."),
            Key.name("group").note("A sticky group: virtual servers sharing one table (IOS buddied virtual servers)."));

    static final Schema VIRTUAL_SERVER = withServiceKeys(Schema.of("a virtual server", List.of(
            Key.endpoint("listen").required().note("No two virtual servers on one address, port and transport."),
            Key.oneOf("service", SERVICES).required().note("Must also be built in."),
            Key.name("farm").required().note("Must exist."),
            Key.mapping("sticky", STICKY).byDefault("none (no stickiness)")
                    .note("Requests of one subscriber or client go to one real."),
            Key.duration("response-timeout").byDefault("`2s`")
                    .note("How long a forwarded request waits before it counts as a failure of the real"
                            + " (IOS `idle gtp request`, `idle radius request`, `idle asn request`, `idle ipmobile request`)."),
            Key.duration("idle").byDefault("`1m`").note("How long an idle flow is kept (generic UDP)."),
            Key.integer("max-datagram", 1, ConfigBinder.MAX_DATAGRAM).byDefault("`4096`")
                    .note("Larger datagrams are dropped as oversized."),
            Key.bool("inservice").byDefault("`true`").note("`false` starts the virtual server OUTOFSERVICE."),
            Key.oneOf("advertise", List.of("false", "true", "active", "inservice")).byDefault("`false`")
                    .note("Route health injection (needs `route-health`): `active` (or `true`) while a real serves"
                            + " (IOS `advertise active`), `inservice` while the server is in service (IOS's default)."),
            Key.mapping("overload", OverloadBinder.OVERLOAD)
                    .byDefault("none (every request taken)").note("See overload.md; not for `tcp`."),
            Key.listOf("client-farms", ClientFarmsBinder.CLIENT_FARM).byDefault("none (every client to `farm`)")
                    .note("`{clients: [SUBNET...], farm: NAME}`: those clients go to that farm (longest prefix wins)."),
            Key.bool("client-nat").byDefault("`true`")
                    .note("`false`: the reals see the client's own address (UDP services; transparent.md)."),
            Key.list("access", "interface names").byDefault("every interface")
                    .note("Only what arrives on these interfaces is served (IOS `access`; Linux)."))));

    static final Schema ROOT = Schema.of("the document",
            Key.oneOf("transport", TRANSPORTS).byDefault("`epoll` where available, else `nio`")
                    .note("Netty transport of every socket; given, the node refuses to start where it is not"
                            + " available. `nio` cannot do `client-nat: false`. See operations.md."),
            Key.mapping("cluster", CLUSTER).byDefault("single node").note("The nodes sharing bindings and sessions"
                    + " (cluster.md)."),
            Key.mapping("admin", ADMIN).byDefault("enabled on `127.0.0.1:8080`, no token")
                    .note("The REST API, `/metrics`, `/health` and the status page (operations.md)."),
            Key.mapping("persistence", PERSISTENCE).byDefault("none: in memory only")
                    .note("A lone node's bindings and sessions kept over restarts."),
            Key.mapping("route-health", RouteHealthBinder.ROUTE_HEALTH).byDefault("no hook")
                    .note("Announcing the virtual addresses of virtual servers with `advertise` (deploying-a-cluster.md)."),
            Key.mapping("debug-capture", DEBUG_CAPTURE).byDefault("nothing captured")
                    .note("Packet capture of the live director (capture-tools.md)."),
            Key.named("probes", ProbeBinder.PROBE).byDefault("none").note("Health checks, named by farms' `probes`."),
            Key.named("farms", FARM).required().note("At least one."),
            Key.named("virtual-servers", VIRTUAL_SERVER).required().note("At least one."),
            Key.named("firewall-farms", DispatchedBinder.FIREWALL_FARM)
                    .byDefault("none").note("Dispatched mode (configuration.md)."),
            Key.named("vpn-farms", DispatchedBinder.VPN_FARM)
                    .byDefault("none").note("Dispatched mode (configuration.md)."),
            Key.mapping("dfp", DfpBinder.DFP).byDefault("none").note("DFP manager, agent and built-in agents (dfp.md)."),
            Key.mapping("static-nat", StaticNatBinder.STATIC_NAT).byDefault("none")
                    .note("What the reals open themselves, via nftables (IOS `ip slb static`); see transparent.md."));

    private CoreSchema() {
    }

    /** {@code base} and the plug-ins' keys of a real ({@code secret}, {@code transport}, ...). */
    private static List<Key> withRealKeys(List<Key> base) {
        List<Key> keys = new ArrayList<>(base);
        Plugins.installed().realKeys().stream().map(RealKey::key).forEach(keys::add);
        return keys;
    }

    /**
     * {@code base} with each service's keys (its options binder's declaration) as the variant of its
     * {@code service}; services sharing a binder share the variant.
     */
    private static Schema withServiceKeys(Schema base) {
        Map<List<Key>, Schema> byBinder = new LinkedHashMap<>();
        Map<String, Schema> variants = new LinkedHashMap<>();
        Plugins.installed().services().forEach(service -> service.spec().options().ifPresent(binder ->
                variants.put(service.spec().name(), byBinder.computeIfAbsent(binder.declaration(), keys -> Schema.of(
                        "the keys of a virtual server with this service, declared by its plug-in", keys)))));
        return base.withVariants("service", variants);
    }
}
