package io.switchboard.director.radius;

import io.switchboard.director.config.ServiceOptions;
import io.switchboard.director.config.Subnet;
import io.switchboard.director.config.bind.AddressLiterals;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
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

    public static final List<String> CLIENT_KEYS = List.of("address", "subnet", "secret",
            "require-message-authenticator", "limit-proxy-state", "certificate-name");
    public static final List<String> RADIUS_KEYS = List.of("framed-ip", "state-idle", "vsa-correlation",
            "upstream-sockets", "accounting-on-off", "duplicates", "status-server", "dae-sessions",
            "accounting-local-ack");
    public static final List<String> DAE_SESSIONS_KEYS = List.of("hold");
    public static final List<String> DUPLICATES_KEYS = List.of("cache-time", "max-entries");
    public static final List<String> VSA_KEYS = List.of("vendor", "type", "hold");
    public static final List<String> FRAMED_IP_KEYS = List.of("learn", "purge-on-stop", "purge-on-accounting-on-off");

    @Override
    public List<String> keys() {
        return List.of("clients", "radius", "radsec");
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
                    String path = ConfigPath.index(vs.pathOf("clients"), i);
                    Section.open(items.get(i), path, errors, CLIENT_KEYS).flatMap(RadiusOptionsBinder::client).ifPresent(clients::add);
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
            Optional<Section> radius = vs.section("radius", RADIUS_KEYS);
            if (radius.isPresent() && radius.get().has("vsa-correlation")) {
                Optional<Section> v = radius.get().section("vsa-correlation", VSA_KEYS);
                if (v.isPresent()) {
                    Section c = v.get();
                    Optional<Integer> vendor = c.require("vendor", "required")
                            ? c.integer("vendor", 0, Integer.MAX_VALUE) : Optional.empty();
                    Optional<Integer> type = c.require("type", "required") ? c.integer("type", 0, 255) : Optional.empty();
                    Duration hold = c.positiveDuration("hold").orElse(Duration.ofHours(1));
                    if (vendor.isPresent() && type.isPresent()) {
                        vsa = Optional.of(new RadiusOptions.VsaCorrelation(vendor.get(), type.get(), hold));
                    }
                }
            }
            if (radius.isPresent()) {
                Section r = radius.get();
                stateIdle = r.positiveDuration("state-idle").orElse(stateIdle);
                upstreamSockets = r.integer("upstream-sockets", 1, RadiusOptions.MAX_UPSTREAM_SOCKETS)
                        .orElse(upstreamSockets);
                Optional<String> onOff = r.string("accounting-on-off");
                if (onOff.isPresent() && !onOff.get().equals("all-reals") && !onOff.get().equals("one-real")) {
                    r.error(r.pathOf("accounting-on-off"), "must be all-reals or one-real, not '" + onOff.get() + "'");
                }
                onOffToAll = onOff.map("all-reals"::equals).orElse(true);
                localAck = r.bool("accounting-local-ack").orElse(false);
                Optional<Section> cache = r.has("duplicates") ? r.section("duplicates", DUPLICATES_KEYS)
                        : Optional.empty();
                if (cache.isPresent()) {
                    RadiusOptions.Duplicates d = RadiusOptions.Duplicates.DEFAULT;
                    duplicates = new RadiusOptions.Duplicates(
                            cache.get().positiveDuration("cache-time").orElse(d.cacheTime()),
                            cache.get().integer("max-entries", 0, RadiusOptions.Duplicates.MAX_ENTRIES)
                                    .orElse(d.maxEntries()));
                }
                statusServer = statusServer(r).orElse(statusServer);
                if (r.has("dae-sessions")) {
                    daeSessions = r.section("dae-sessions", DAE_SESSIONS_KEYS).map(d -> new RadiusOptions.DaeSessions(
                            d.positiveDuration("hold").orElse(RadiusOptions.DaeSessions.DEFAULT_HOLD)));
                }
                Optional<Section> framed = radius.get().has("framed-ip")
                        ? radius.get().section("framed-ip", FRAMED_IP_KEYS) : Optional.empty();
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
        // A DAE NAS (DaeOptionsBinder.NAS_KEYS) is a client without these keys: read them only where declared.
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
