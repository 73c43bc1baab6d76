package io.switchboard.director.radius;

import io.switchboard.director.config.bind.Durations;
import io.switchboard.director.config.bind.Schema;
import io.switchboard.director.config.bind.Key;
import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.Section;
import io.switchboard.director.config.bind.YamlNode;
import io.switchboard.director.radius.radsec.RadsecOptions;
import io.switchboard.director.radius.radsec.RadsecOptionsBinder;
import io.switchboard.director.spi.OptionsBinder;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code service: radius}: the virtual server's {@code clients:} (each {@code address} or
 * {@code subnet}, with its {@code secret} and BlastRADIUS defences) and its {@code radius:} block.
 */
public final class RadiusOptionsBinder implements OptionsBinder {

    /** The keys a client entry shares with a {@code radius-dae} virtual server's NAS entry. */
    static final List<Key> PEER_KEYS = List.of(
            Key.address("address").note("One client; give `address` or `subnet`."),
            Key.string("subnet").note("`ADDRESS/PREFIX`: the clients of a subnet (`10.0.0.0/8`, `2001:db8::/32`)."),
            Key.secret("secret").required().note("The secret shared with this client (RFC 2865 §3)."));

    static final Schema CLIENT = Schema.of("a RADIUS client (NAS, GGSN/PGW) allowed to send", withPeerKeys(
            tristateKey("require-message-authenticator").defaultValue(RadiusOptions.DEFAULT_REQUIRE.text())
                    .note("Access-Requests must carry a Message-Authenticator (RFC 3579 §3.2); `auto`: once this"
                            + " client sent one (radius.md, BlastRADIUS)."),
            tristateKey("limit-proxy-state").defaultValue(RadiusOptions.DEFAULT_LIMIT_PROXY_STATE.text())
                    .note("Access-Requests with Proxy-State must carry a Message-Authenticator; `auto`: decided by"
                            + " the client's first Access-Request."),
            Key.string("certificate-name").byDefault("none")
                    .note("The name its RadSec certificate carries, for `radsec.identify: certificate` (radsec.md).")));

    static final Schema FRAMED_IP = Schema.of("the Framed-IP-Address table (needs a `sticky` table or group)",
            Key.bool("learn").defaultValue(RadiusOptions.FramedIp.DEFAULT.learn()).note("Bind Framed-IP-Addresses,"
                    + " Framed-IPv6-Prefixes and Delegated-IPv6-Prefixes from acknowledged Accounting-Start/Interim-Update"
                    + " and from Access-Accept."),
            Key.bool("purge-on-stop").defaultValue(RadiusOptions.FramedIp.DEFAULT.purgeOnStop())
                    .note("Remove the bindings when their Accounting-Stop is acknowledged."),
            Key.bool("purge-on-accounting-on-off").defaultValue(RadiusOptions.FramedIp.DEFAULT.purgeOnAccountingOnOff())
                    .note("Remove every binding learned from a client when it sends Accounting-On/Off."));

    static final Schema VSA_CORRELATION = Schema.of("a vendor attribute copied from authentication into accounting",
            Key.integer("vendor", 0, Integer.MAX_VALUE).required().note("Vendor-Id, e.g. `10415` (3GPP)."),
            Key.integer("type", 0, 255).required().note("The vendor type (RFC 2865 §5.26)."),
            Key.duration("hold").defaultValue(RadiusOptions.VsaCorrelation.DEFAULT_HOLD)
                    .note("How long a seen value is kept."));

    static final Schema DUPLICATES = Schema.of("the response cache for retransmissions",
            Key.duration("cache-time").defaultValue(RadiusOptions.Duplicates.DEFAULT_CACHE_TIME)
                    .note("How long a relayed answer is sent again for a retransmission (RFC 5080 §2.2.2: 5 to 30 s)."),
            Key.integer("max-entries", 0, RadiusOptions.Duplicates.MAX_ENTRIES)
                    .defaultValue(RadiusOptions.Duplicates.DEFAULT_MAX_ENTRIES)
                    .note("Rounded up to a power of two: the slots, one answer each; `0` turns the cache off."));

    static final Schema DAE_SESSIONS = Schema.of("the sessions' NASes, for Dynamic Authorization",
            Key.duration("hold").defaultValue(RadiusOptions.DaeSessions.DEFAULT_HOLD).note("How long after its last"
                    + " Start or Interim-Update a session whose Stop was lost is kept."));

    private static final List<String> ON_OFF = List.of("all-reals", "one-real");

    static final Schema RADIUS = Schema.of("the RADIUS settings of a `radius` virtual server",
            Key.mapping("framed-ip", FRAMED_IP).byDefault("all `true`")
                    .note("Subscribers' Framed-IP-Address and IPv6 prefixes, bound to their real."),
            Key.duration("state-idle").defaultValue(RadiusOptions.DEFAULT_STATE_IDLE)
                    .note("How long the State of a relayed Access-Challenge is remembered."),
            Key.mapping("vsa-correlation", VSA_CORRELATION).byDefault("none")
                    .note("Copy a vendor attribute from authentication into the Accounting-Start."),
            Key.integer("upstream-sockets", 1, RadiusOptions.MAX_UPSTREAM_SOCKETS)
                    .defaultValue(RadiusOptions.DEFAULT_UPSTREAM_SOCKETS).note("Director sockets toward the reals each"
                            + " event loop may open, each with 256 identifiers per real (RFC 2865 §3, Identifier)."),
            Key.oneOf("accounting-on-off", ON_OFF).defaultValue(ON_OFF.get(0)).note("Where Accounting-On/Off go:"
                    + " every real of the farm (first answer relayed), or one real like any request."),
            Key.mapping("duplicates", DUPLICATES).byDefault("`{ cache-time: "
                    + Durations.format(RadiusOptions.Duplicates.DEFAULT_CACHE_TIME) + ", max-entries: "
                    + RadiusOptions.Duplicates.DEFAULT_MAX_ENTRIES + " }`")
                    .note("Retransmitted requests answered from a cache (RFC 5080 §2.2.2)."),
            Key.oneOf("status-server", java.util.Arrays.stream(RadiusOptions.StatusServerPort.values())
                    .map(RadiusOptions.StatusServerPort::text).toList())
                    .defaultValue(RadiusOptions.StatusServerPort.AUTO.text())
                    .note("The answer to a Status-Server sent to the virtual server (RFC 5997; radius.md)."),
            Key.mapping("dae-sessions", DAE_SESSIONS).byDefault("none")
                    .note("Learn the NAS of each session from accounting, for Dynamic Authorization (RFC 5176)."),
            Key.bool("accounting-local-ack").defaultValue(false).note("The director acknowledges each"
                    + " Accounting-Request it forwards, signed with the client's secret, and absorbs the real's answer."));

    private static final List<Key> DECLARATION = List.of(
            Key.listOf("clients", CLIENT).required().note("`radius`: the clients allowed to send, with their secrets."),
            Key.mapping("radius", RADIUS).byDefault("the defaults below")
                    .note("`radius`: the Framed-IP table, EAP State memory, accounting and caches (radius.md)."),
            Key.mapping("radsec", RadsecOptionsBinder.RADSEC).byDefault("none")
                    .note("RADIUS over TLS toward clients and reals (RFC 6614; radsec.md)."));

    @Override
    public List<Key> declaration() {
        return DECLARATION;
    }

    /** {@link #PEER_KEYS} and {@code more}. */
    static List<Key> withPeerKeys(Key... more) {
        List<Key> keys = new ArrayList<>(PEER_KEYS);
        keys.addAll(List.of(more));
        return keys;
    }

    /** A key read by {@link #tristate}: {@code true}, {@code false} or {@code auto}. */
    static Key tristateKey(String name) {
        return Key.oneOf(name, java.util.Arrays.stream(RadiusOptions.Tristate.values())
                .map(RadiusOptions.Tristate::text).toList());
    }

    @Override
    public Optional<ServiceOptions> bind(Section vs) {
        List<ConfigError> errors = vs.errors();
        int before = errors.size();
        List<RadiusOptions.Client> clients = new ArrayList<>();
        if (vs.require("clients", "required for service radius (a list of {subnet|address, secret})")) {
            vs.list("clients").ifPresent(items -> {
                if (items.isEmpty()) {
                    vs.error(vs.pathOf("clients"), "must list at least one client");
                }
                for (int i = 0; i < items.size(); i++) {
                    vs.item("clients", items, i).flatMap(RadiusOptionsBinder::client).ifPresent(clients::add);
                }
            });
        }
        RadiusOptions.FramedIp framedIp = RadiusOptions.FramedIp.DEFAULT;
        Duration stateIdle = RadiusOptions.DEFAULT_STATE_IDLE;
        Optional<RadiusOptions.VsaCorrelation> vsa = Optional.empty();
        int upstreamSockets = RadiusOptions.DEFAULT_UPSTREAM_SOCKETS;
        boolean onOffToAll = true;
        RadiusOptions.Duplicates duplicates = RadiusOptions.Duplicates.DEFAULT;
        RadiusOptions.StatusServerPort statusServer = RadiusOptions.StatusServerPort.AUTO;
        Optional<RadiusOptions.DaeSessions> daeSessions = Optional.empty();
        boolean localAck = false;
        if (vs.has("radius")) {
            Optional<Section> radius = vs.section("radius");
            if (radius.isPresent() && radius.get().has("vsa-correlation")) {
                Optional<Section> v = radius.get().section("vsa-correlation");
                if (v.isPresent()) {
                    Section c = v.get();
                    Optional<Integer> vendor = c.require("vendor", "required") ? c.integer("vendor") : Optional.empty();
                    Optional<Integer> type = c.require("type", "required") ? c.integer("type") : Optional.empty();
                    Duration hold = c.positiveDuration("hold").orElse(RadiusOptions.VsaCorrelation.DEFAULT_HOLD);
                    if (vendor.isPresent() && type.isPresent()) {
                        vsa = Optional.of(new RadiusOptions.VsaCorrelation(vendor.get(), type.get(), hold));
                    }
                }
            }
            if (radius.isPresent()) {
                Section r = radius.get();
                stateIdle = r.positiveDuration("state-idle").orElse(stateIdle);
                upstreamSockets = r.integer("upstream-sockets")
                        .orElse(upstreamSockets);
                Optional<String> onOff = r.string("accounting-on-off");
                if (onOff.isPresent() && !ON_OFF.contains(onOff.get())) {
                    r.error(r.pathOf("accounting-on-off"), "must be all-reals or one-real, not '" + onOff.get() + "'");
                }
                onOffToAll = onOff.map(ON_OFF.get(0)::equals).orElse(true);
                localAck = r.bool("accounting-local-ack").orElse(false);
                Optional<Section> cache = r.has("duplicates") ? r.section("duplicates")
                        : Optional.empty();
                if (cache.isPresent()) {
                    RadiusOptions.Duplicates d = RadiusOptions.Duplicates.DEFAULT;
                    duplicates = new RadiusOptions.Duplicates(
                            cache.get().positiveDuration("cache-time").orElse(d.cacheTime()),
                            cache.get().integer("max-entries")
                                    .orElse(d.maxEntries()));
                }
                statusServer = statusServer(r).orElse(statusServer);
                if (r.has("dae-sessions")) {
                    daeSessions = r.section("dae-sessions").map(d -> new RadiusOptions.DaeSessions(
                            d.positiveDuration("hold").orElse(RadiusOptions.DaeSessions.DEFAULT_HOLD)));
                }
                Optional<Section> framed = radius.get().has("framed-ip")
                        ? radius.get().section("framed-ip") : Optional.empty();
                if (framed.isPresent()) {
                    RadiusOptions.FramedIp d = RadiusOptions.FramedIp.DEFAULT;
                    framedIp = new RadiusOptions.FramedIp(framed.get().bool("learn").orElse(d.learn()),
                            framed.get().bool("purge-on-stop").orElse(d.purgeOnStop()),
                            framed.get().bool("purge-on-accounting-on-off").orElse(d.purgeOnAccountingOnOff()));
                }
            }
        }
        Optional<RadsecOptions> radsec = RadsecOptionsBinder.bind(vs);
        if (radsec.isPresent() && radsec.get().identify() == RadsecOptions.Identify.CERTIFICATE
                && clients.stream().noneMatch(c -> c.certificateName().isPresent())) {
            vs.error(vs.pathOf("clients"), "radsec identifies peers by certificate: give clients a certificate-name");
        }
        if (errors.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new RadiusOptions(clients, framedIp, stateIdle, vsa, upstreamSockets, onOffToAll,
                duplicates, statusServer, daeSessions, radsec, localAck));
    }

    /**
     * {@code status-server: auto | access | accounting | off} (YAML reads a bare {@code off} as false);
     * empty when absent or (reported by path) something else.
     */
    private static Optional<RadiusOptions.StatusServerPort> statusServer(Section r) {
        Optional<YamlNode> node = r.node("status-server");
        if (node.isEmpty()) {
            return Optional.empty();
        }
        if (node.get() instanceof YamlNode.Scalar scalar) {
            String text = scalar.text().toLowerCase(java.util.Locale.ROOT);
            if (scalar.kind() == YamlNode.Kind.BOOLEAN && (text.equals("off") || text.equals("false") || text.equals("no"))) {
                return Optional.of(RadiusOptions.StatusServerPort.OFF);
            }
            for (RadiusOptions.StatusServerPort port : RadiusOptions.StatusServerPort.values()) {
                if (scalar.kind() == YamlNode.Kind.STRING && port.text().equals(text)) {
                    return Optional.of(port);
                }
            }
        }
        r.error(r.pathOf("status-server"), "must be auto, access, accounting or off");
        return Optional.empty();
    }

    /** {@code ADDRESS/PREFIX}; reported at {@code key} of {@code s} when malformed. */
    private static Optional<Subnet> subnet(Section s, String key, String text) {
        try {
            return Optional.of(AddressLiterals.parseSubnet(text));
        } catch (IllegalArgumentException e) {
            s.error(s.pathOf(key), e.getMessage());
            return Optional.empty();
        }
    }

    /** One entry of {@code clients:} (also a {@code radius-dae} virtual server's NAS entries). */
    static Optional<RadiusOptions.Client> client(Section c) {
        int before = c.errors().size();
        Optional<String> secret = c.require("secret", "required") ? c.secret("secret") : Optional.empty();
        InetAddress network = null;
        int prefix = -1;
        if (c.has("address") == c.has("subnet")) {
            c.error(c.path(), "give either address or subnet");
        } else if (c.has("address")) {
            Optional<String> text = c.string("address");
            if (text.isPresent()) {
                try {
                    network = AddressLiterals.parseAddress(text.get());
                    prefix = network.getAddress().length * 8;
                } catch (IllegalArgumentException e) {
                    c.error(c.pathOf("address"), e.getMessage());
                }
            }
        } else {
            Optional<Subnet> subnet = c.string("subnet").flatMap(text -> subnet(c, "subnet", text));
            if (subnet.isPresent()) {
                network = subnet.get().network();
                prefix = subnet.get().prefixLength();
            }
        }
        // A DAE NAS (DaeOptionsBinder.NAS) is a client without these keys: read them only where declared.
        boolean full = c.schema().key("certificate-name").isPresent();
        Optional<RadiusOptions.Tristate> require = full ? tristate(c, "require-message-authenticator") : Optional.empty();
        Optional<RadiusOptions.Tristate> limit = full ? tristate(c, "limit-proxy-state") : Optional.empty();
        Optional<String> certificateName = full ? c.string("certificate-name") : Optional.empty();
        if (network == null || secret.isEmpty() || c.errors().size() > before) {
            return Optional.empty();
        }
        return Optional.of(new RadiusOptions.Client(network, prefix, secret.get(),
                require.orElse(RadiusOptions.DEFAULT_REQUIRE), limit.orElse(RadiusOptions.DEFAULT_LIMIT_PROXY_STATE),
                certificateName));
    }

    /**
     * {@code true}, {@code false} or {@code auto} at {@code key}: empty when absent or (reported by
     * path) something else.
     */
    static Optional<RadiusOptions.Tristate> tristate(Section s, String key) {
        Optional<YamlNode> node = s.node(key);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        if (node.get() instanceof YamlNode.Scalar scalar) {
            if (scalar.kind() == YamlNode.Kind.BOOLEAN) {
                String text = scalar.text().toLowerCase(java.util.Locale.ROOT);
                boolean on = text.equals("true") || text.equals("yes") || text.equals("on");
                return Optional.of(on ? RadiusOptions.Tristate.ON : RadiusOptions.Tristate.OFF);
            }
            if (scalar.kind() == YamlNode.Kind.STRING && scalar.text().equals("auto")) {
                return Optional.of(RadiusOptions.Tristate.AUTO);
            }
        }
        s.error(s.pathOf(key), "must be true, false or auto");
        return Optional.empty();
    }
}
