package io.switchboard.app.reload;

import io.switchboard.app.reload.ConfigChange.Kind;
import io.switchboard.app.reload.InPlaceChanges.Action;
import io.switchboard.app.reload.InPlaceChanges.InPlace;
import io.switchboard.app.reload.InPlaceChanges.Phase;
import io.switchboard.director.Director;
import io.switchboard.director.config.Advertise;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.DebugCaptureConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.ProbeConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.StickyConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.TransportKind;
import io.switchboard.director.config.VirtualServerConfig;
import io.switchboard.director.config.bind.ConfigError;
import io.switchboard.director.config.bind.ConfigPath;
import io.switchboard.director.config.bind.Durations;
import io.switchboard.director.spi.Plugins;
import io.switchboard.director.spi.RealKey;
import io.switchboard.director.spi.ServiceSpec;
import io.switchboard.director.spi.StickyKind;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The difference between two validated configurations, key by key as the file names them
 * ({@link ConfigChange}), sorted by path; and, for each change a running director can take in place,
 * how it does and in which {@link InPlaceChanges.Phase}. In place: a real's {@code weight}, {@code maxconns} and
 * {@code inservice}; farms, reals and probes added, removed and changed (a removed real leaves by its
 * {@code on-remove}); virtual servers added, removed and changed ({@link Director#addVirtualServer},
 * {@link Director#removeVirtualServer}, {@link Director#replaceVirtualServer}: a changed one is replaced
 * as a whole, once however many of its keys changed; only its {@code inservice} and {@code advertise}
 * apply alone). None of them loses a binding, session or pending transaction. Every other change needs a
 * restart ({@link #needsRestart()}), among them a TCP virtual server's change (its listener cannot be
 * reconfigured in place) and any change of a farm that a firewall or VPN farm (dispatched mode) balances
 * over: the dispatchers take their farms at start-up.
 *
 * <p>Values that may hold secrets (the admin token, the plug-ins' keys of a real, service options,
 * probe checks) are compared but not shown.
 */
public final class ConfigDiff {

    /** A change the director takes when it is removed: nothing to do now (the on-remove of the real). */
    private static final Action READ_AT_REMOVAL = Action.now(d -> { });

    /** Each change, and how to apply it in place. */
    private final InPlaceChanges inPlace = new InPlaceChanges();
    private final List<ConfigChange> changes = new ArrayList<>();
    /**
     * Takes the new configuration's farms and probes, whatever of them changed: one action that every
     * such change names, run once ({@link Director#reconfigureFarms}).
     */
    private final Action farms;
    /** The farms a firewall or VPN farm balances over, in either configuration. */
    private final Set<String> dispatchedFarms = new java.util.HashSet<>();

    private ConfigDiff(SwitchboardConfig next) {
        this.farms = Action.now(d -> d.reconfigureFarms(next));
    }

    /** What turns {@code running} into {@code next}. */
    public static ConfigDiff between(SwitchboardConfig running, SwitchboardConfig next) {
        ConfigDiff diff = new ConfigDiff(next);
        for (SwitchboardConfig c : List.of(running, next)) {
            c.dispatched().firewallFarms().values().forEach(f -> diff.dispatchedFarms.add(f.farm()));
            c.dispatched().vpnFarms().values().forEach(f -> diff.dispatchedFarms.add(f.farm()));
        }
        diff.cluster(running.cluster(), next.cluster());
        // The event loops are built with the transport: a change is a restart.
        diff.field("transport", running.transport().map(TransportKind::configName).orElse(null),
                next.transport().map(TransportKind::configName).orElse(null));
        diff.field("admin.enabled", running.admin().enabled(), next.admin().enabled());
        diff.field("admin.listen", running.admin().listen().toString(), next.admin().listen().toString());
        diff.field("admin.exposure", running.admin().exposure().configName(), next.admin().exposure().configName());
        if (!running.admin().token().equals(next.admin().token())) {
            diff.add(Kind.CHANGED, "admin.token", null, null, null);
        }
        diff.field("persistence.file", running.persistence().file().map(Object::toString).orElse(null),
                next.persistence().file().map(Object::toString).orElse(null));
        diff.field("persistence.interval", running.persistence().interval().map(ConfigDiff::text).orElse(null),
                next.persistence().interval().map(ConfigDiff::text).orElse(null));
        diff.field("route-health.hook", running.routeHealth().hook().map(Object::toString).orElse(null),
                next.routeHealth().hook().map(Object::toString).orElse(null));
        diff.field("route-health.timeout", text(running.routeHealth().timeout()), text(next.routeHealth().timeout()));
        diff.field("route-health.bgp", running.routeHealth().bgp().map(Object::toString).orElse(null),
                next.routeHealth().bgp().map(Object::toString).orElse(null));
        diff.debugCapture(running.debugCapture(), next.debugCapture());
        if (!running.staticNat().equals(next.staticNat())) { // a restart: the node writes its table at start
            diff.add(Kind.CHANGED, "static-nat", null, null, null);
        }
        if (!running.dfp().equals(next.dfp())) { // a restart; not printed: it holds the DFP password
            diff.add(Kind.CHANGED, "dfp", null, null, null);
        }
        diff.named("probes", running.probes(), next.probes(), p -> p.check().type(), diff::probe, ConfigPath::child,
                p -> at(Phase.ADD, diff.farms), p -> at(Phase.ADD, diff.farms));
        diff.named("farms", running.farms(), next.farms(),
                f -> f.predictor().configName() + ", " + f.reals().size() + (f.reals().size() == 1 ? " real" : " reals"),
                diff::farm, ConfigPath::child, f -> diff.farmAction(f.name(), Phase.ADD, diff.farms),
                f -> diff.farmAction(f.name(), Phase.REMOVE, Action.now(d -> d.removeFarm(f))));
        diff.named("virtual-servers", running.virtualServers(), next.virtualServers(),
                v -> v.service() + " on " + v.listen() + ", farm " + v.farm(),
                (path, pair) -> diff.virtualServer(path, pair), ConfigPath::child,
                v -> at(Phase.SERVERS, d -> d.addVirtualServer(v).onSuccess(
                        ok -> d.advertise(v.name(), next.routeHealth().advertise(v.name())))),
                v -> at(Phase.SERVERS, d -> {
                    d.removeVirtualServer(v.name()); // unbound in the background, once its in-flight requests end
                    return Future.succeededFuture();
                }));
        running.virtualServers().keySet().stream().filter(next.virtualServers()::containsKey)
                .forEach(name -> diff.advertise(name, running, next));
        diff.named("firewall-farms", running.dispatched().firewallFarms(), next.dispatched().firewallFarms(),
                f -> "farm " + f.farm(), (path, pair) -> diff.add(Kind.CHANGED, path, null, null, null));
        diff.named("vpn-farms", running.dispatched().vpnFarms(), next.dispatched().vpnFarms(),
                f -> "farm " + f.farm(), (path, pair) -> diff.add(Kind.CHANGED, path, null, null, null));
        if (diff.changes.isEmpty() && !running.equals(next)) {
            // A setting this walk does not name: never taken for no change, never applied in place.
            diff.add(Kind.CHANGED, ConfigError.DOCUMENT, null, null, null);
        }
        diff.changes.sort(Comparator.comparing(ConfigChange::path));
        return diff;
    }

    /** Every change, sorted by path. */
    public List<ConfigChange> changes() {
        return List.copyOf(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** The paths whose change a running director cannot take yet, sorted; empty when all apply in place. */
    public List<String> needsRestart() {
        return inPlace.needsRestart(changes);
    }

    /**
     * Applies every change to the running director ({@link InPlaceChanges#apply}: phase by phase, in
     * path order within a phase, an action that several changes share once). Only when nothing
     * {@linkplain #needsRestart() needs a restart}; any thread may call this. Completes when every
     * change has taken effect, failed when one could not (e.g. an address is taken), the others applied.
     */
    public Future<Void> apply(Director director) {
        return inPlace.apply(changes, director);
    }

    // ---- sections -------------------------------------------------------------------------------

    private void cluster(ClusterConfig old, ClusterConfig next) {
        field("cluster.enabled", old.enabled(), next.enabled());
        field("cluster.name", old.name(), next.name());
        field("cluster.members", String.join(", ", old.members()), String.join(", ", next.members()));
        field("cluster.port", old.port(), next.port());
        field("cluster.bind", old.bind().map(a -> a.getHostAddress()).orElse(null),
                next.bind().map(a -> a.getHostAddress()).orElse(null));
        field("cluster.kubernetes", old.kubernetes().map(Object::toString).orElse(null),
                next.kubernetes().map(Object::toString).orElse(null));
        field("cluster.exposure", old.exposure().configName(), next.exposure().configName());
        field("cluster.unlisted-member", old.unlistedMember().configName(), next.unlistedMember().configName());
    }

    private void debugCapture(DebugCaptureConfig old, DebugCaptureConfig next) {
        field("debug-capture.directory", old.directory().toString(), next.directory().toString());
        field("debug-capture.file-megabytes", (int) (old.fileBytes() >> 20), (int) (next.fileBytes() >> 20));
        field("debug-capture.files", old.files(), next.files());
        field("debug-capture.queue", old.queue(), next.queue());
        field("debug-capture.start", sorted(old.start()), sorted(next.start()));
    }

    /** A probe changed: the probe scheduler starts it again on every real it runs against. */
    private void probe(String path, Pair<ProbeConfig> p) {
        field(ConfigPath.child(path, "type"), p.old().check().type(), p.next().check().type(), farms);
        if (p.old().check().type().equals(p.next().check().type()) && !p.old().check().equals(p.next().check())) {
            add(Kind.CHANGED, path, null, null, farms); // the check's own keys; a RADIUS probe's hold a secret
        }
        field(ConfigPath.child(path, "interval"), text(p.old().interval()), text(p.next().interval()), farms);
        field(ConfigPath.child(path, "timeout"), text(p.old().timeout()), text(p.next().timeout()), farms);
        field(ConfigPath.child(path, "failures"), p.old().failures(), p.next().failures(), farms);
        field(ConfigPath.child(path, "port"), value(p.old().port()), value(p.next().port()), farms);
    }

    /** A farm changed: in place ({@link Director#reconfigureFarms}), unless a dispatched farm balances over it. */
    private void farm(String path, Pair<FarmConfig> f) {
        String farm = f.next().name();
        Action settings = farmAction(farm, farms);
        field(ConfigPath.child(path, "predictor"), f.old().predictor().configName(), f.next().predictor().configName(),
                settings);
        String failure = ConfigPath.child(path, "failure");
        field(ConfigPath.child(failure, "numconns"), f.old().failure().numconns(), f.next().failure().numconns(),
                settings);
        field(ConfigPath.child(failure, "numclients"), f.old().failure().numclients(), f.next().failure().numclients(),
                settings);
        field(ConfigPath.child(failure, "retry"), text(f.old().failure().retry()), text(f.next().failure().retry()),
                settings);
        field(ConfigPath.child(failure, "inband"), f.old().failure().inband(), f.next().failure().inband(), settings);
        field(ConfigPath.child(failure, "purge"), f.old().failure().purge(), f.next().failure().purge(), settings);
        field(ConfigPath.child(path, "backup"), f.old().backup().orElse(null), f.next().backup().orElse(null), settings);
        field(ConfigPath.child(path, "probes"), String.join(", ", f.old().probes()), String.join(", ", f.next().probes()),
                settings);
        field(ConfigPath.child(path, "slow-start"), f.old().slowStart().map(ConfigDiff::text).orElse(null),
                f.next().slowStart().map(ConfigDiff::text).orElse(null), settings);
        field(ConfigPath.child(path, "route-map"), f.old().routeMap().toString(), f.next().routeMap().toString(),
                settings);
        Map<String, RealConfig> oldReals = reals(f.old());
        Map<String, RealConfig> nextReals = reals(f.next());
        // Round robin takes the reals in the file's order: the same reals in another order are a change.
        List<String> kept = oldReals.keySet().stream().filter(nextReals::containsKey).toList();
        List<String> keptNext = nextReals.keySet().stream().filter(oldReals::containsKey).toList();
        field(ConfigPath.child(path, "reals"), String.join(", ", kept), String.join(", ", keptNext), settings);
        named(ConfigPath.child(path, "reals"), oldReals, nextReals, r -> r.endpoint().toString(),
                (realPath, r) -> real(farm, realPath, r), ConfigDiff::keyed,
                r -> farmAction(farm, Phase.ADD, farms),
                r -> farmAction(farm, Phase.REMOVE, Action.now(d -> d.removeReal(farm, r))));
    }

    /** {@code apply}, or null (a restart) for a farm that a firewall or VPN farm balances over. */
    private Action farmAction(String farm, Action apply) {
        return dispatchedFarms.contains(farm) ? null : apply;
    }

    private InPlace farmAction(String farm, Phase phase, Action apply) {
        Action action = farmAction(farm, apply);
        return action == null ? null : at(phase, action);
    }

    /** {@code apply} in {@code phase}: what {@link #named}'s added and removed entries take. */
    private static InPlace at(Phase phase, Action apply) {
        return new InPlace(phase, apply);
    }

    private void real(String farm, String path, Pair<RealConfig> r) {
        String id = r.next().endpoint().toString();
        int weight = r.next().weight();
        field(ConfigPath.child(path, "weight"), r.old().weight(), weight,
                Action.now(d -> d.farms().real(farm, id).configureWeight(weight)));
        int maxconns = r.next().maxconns().orElse(Integer.MAX_VALUE);
        field(ConfigPath.child(path, "maxconns"), value(r.old().maxconns()), value(r.next().maxconns()),
                Action.now(d -> d.farms().real(farm, id).configureMaxConns(maxconns)));
        // rate and maxclients: the farm's in-place reconfiguration hands each kept real its new limits.
        field(ConfigPath.child(path, "rate"), value(r.old().limits().rate()), value(r.next().limits().rate()),
                farmAction(farm, farms));
        field(ConfigPath.child(path, "maxclients"), value(r.old().limits().maxclients()),
                value(r.next().limits().maxclients()), farmAction(farm, farms));
        field(ConfigPath.child(path, "on-remove"), r.old().removal().mode().configName(),
                r.next().removal().mode().configName(), READ_AT_REMOVAL);
        field(ConfigPath.child(path, "drain-deadline"), r.old().removal().deadline().map(ConfigDiff::text).orElse(null),
                r.next().removal().deadline().map(ConfigDiff::text).orElse(null), READ_AT_REMOVAL);
        boolean inService = r.next().inService();
        field(ConfigPath.child(path, "inservice"), r.old().inService(), inService, Action.now(d -> {
            // As the admin API does: the change is this node's administrative act, shared with the cluster.
            if (inService) {
                d.farms().real(farm, id).putInService();
            } else {
                d.farms().real(farm, id).takeOutOfService();
            }
        }));
        for (RealKey<?> key : Plugins.installed().realKeys()) {
            Optional<?> old = key.in(r.old().values());
            Optional<?> next = key.in(r.next().values());
            if (!old.equals(next)) {
                add(Kind.CHANGED, ConfigPath.child(path, key.name()), null, null, farmAction(farm, farms));
            }
        }
    }

    private void virtualServer(String path, Pair<VirtualServerConfig> v) {
        String name = v.next().name();
        int first = changes.size();
        field(ConfigPath.child(path, "listen"), v.old().listen().toString(), v.next().listen().toString());
        field(ConfigPath.child(path, "service"), v.old().service(), v.next().service());
        field(ConfigPath.child(path, "farm"), v.old().farm(), v.next().farm());
        field(ConfigPath.child(path, "client-farms"), v.old().clientFarms().toString(),
                v.next().clientFarms().toString());
        sticky(ConfigPath.child(path, "sticky"), v.old().sticky(), v.next().sticky());
        field(ConfigPath.child(path, "response-timeout"), text(v.old().responseTimeout()),
                text(v.next().responseTimeout()));
        field(ConfigPath.child(path, "idle"), text(v.old().idle()), text(v.next().idle()));
        field(ConfigPath.child(path, "max-datagram"), v.old().maxDatagram(), v.next().maxDatagram());
        field(ConfigPath.child(path, "overload"), v.old().overload().toString(), v.next().overload().toString());
        field(ConfigPath.child(path, "client-nat"), v.old().clientNat(), v.next().clientNat());
        if (!v.old().options().equals(v.next().options())) {
            List<String> keys = Plugins.installed().service(v.next().service())
                    .flatMap(s -> s.spec().options()).map(b -> b.keys()).orElse(List.of());
            add(Kind.CHANGED, ConfigPath.child(path, keys.size() == 1 ? keys.get(0)
                    : "{" + String.join(",", keys) + "}"), null, null, null);
        }
        if (changes.size() > first && !tcp(v.old()) && !tcp(v.next())) {
            // One replacement, however many keys changed: the new server is built from the whole entry.
            InPlace replace = at(Phase.SERVERS, d -> d.replaceVirtualServer(v.next()));
            changes.subList(first, changes.size()).forEach(change -> inPlace.put(change, replace));
        }
        // The sockets are bound to the interfaces (SO_BINDTODEVICE) when the listener starts, and a
        // replacement in place keeps the sockets: a change of access needs a restart.
        field(ConfigPath.child(path, "access"), v.old().access().toString(), v.next().access().toString());
        boolean inService = v.next().inService();
        field(ConfigPath.child(path, "inservice"), v.old().inService(), inService,
                Action.now(d -> d.virtualServers().get(name).inService(inService)));
    }

    /**
     * {@code advertise} of a virtual server kept by the reload, changed or not otherwise: route health
     * holds it, not the server's own record, so the walk by server ({@link #virtualServer}) would miss it.
     */
    private void advertise(String name, SwitchboardConfig running, SwitchboardConfig next) {
        var advertise = next.routeHealth().advertise(name);
        // As written: false, active or inservice.
        field(ConfigPath.child(ConfigPath.child("virtual-servers", name), "advertise"), running.routeHealth()
                .advertise(name).map(Advertise::configName).orElse("false"), advertise.map(Advertise::configName)
                .orElse("false"), Action.now(d -> d.advertise(name, advertise)));
    }

    /** Whether the virtual server is a TCP one, whose listener is not reconfigured in place. */
    private static boolean tcp(VirtualServerConfig vs) {
        return Plugins.installed().service(vs.service())
                .map(s -> s.spec().transport() == ServiceSpec.Transport.TCP).orElse(false);
    }

    private void sticky(String path, Optional<StickyConfig> old, Optional<StickyConfig> next) {
        if (old.isEmpty() || next.isEmpty()) {
            if (old.isPresent() != next.isPresent()) {
                add(old.isEmpty() ? Kind.ADDED : Kind.REMOVED, path, old.map(s -> keys(s)).orElse(null),
                        next.map(s -> keys(s)).orElse(null), null);
            }
            return;
        }
        StickyConfig o = old.get();
        StickyConfig n = next.get();
        field(ConfigPath.child(path, "keys"), keys(o), keys(n));
        field(ConfigPath.child(path, "idle"), text(o.idle()), text(n.idle()));
        field(ConfigPath.child(path, "netmask"), value(o.netmaskBits()), value(n.netmaskBits()));
        field(ConfigPath.child(path, "max-entries"), o.maxEntries(), n.maxEntries());
        field(ConfigPath.child(path, "group"), o.group().orElse(null), n.group().orElse(null));
    }

    // ---- the walk -------------------------------------------------------------------------------

    /** A thing present in both configurations. */
    private record Pair<T>(T old, T next) {
    }

    private <T> void named(String section, Map<String, T> old, Map<String, T> next, Function<T, Object> summary,
            BiConsumer<String, Pair<T>> both) {
        named(section, old, next, summary, both, ConfigPath::child, t -> null, t -> null);
    }

    private <T> void named(String section, Map<String, T> old, Map<String, T> next, Function<T, Object> summary,
            BiConsumer<String, Pair<T>> both, BiFunctionPath path) {
        named(section, old, next, summary, both, path, t -> null, t -> null);
    }

    /**
     * Entries of a section by name: added ({@code added} says how that applies in place, null for a
     * restart), removed (likewise {@code removed}), or compared by {@code both}.
     */
    private <T> void named(String section, Map<String, T> old, Map<String, T> next, Function<T, Object> summary,
            BiConsumer<String, Pair<T>> both, BiFunctionPath path, Function<T, InPlace> added,
            Function<T, InPlace> removed) {
        Set<String> names = new LinkedHashSet<>(old.keySet());
        names.addAll(next.keySet());
        for (String name : names) {
            String at = path.of(section, name);
            T o = old.get(name);
            T n = next.get(name);
            if (o == null) {
                record(Kind.ADDED, at, null, summary.apply(n), added.apply(n));
            } else if (n == null) {
                record(Kind.REMOVED, at, summary.apply(o), null, removed.apply(o));
            } else if (!o.equals(n)) {
                both.accept(at, new Pair<>(o, n));
            }
        }
    }

    @FunctionalInterface
    private interface BiFunctionPath {
        String of(String section, String name);
    }

    /** {@code farms.ggsn.reals[10.0.0.3:2123]}. */
    private static String keyed(String section, String key) {
        return section + "[" + key + "]";
    }

    private static Map<String, RealConfig> reals(FarmConfig farm) {
        Map<String, RealConfig> reals = new java.util.LinkedHashMap<>();
        farm.reals().forEach(r -> reals.put(r.endpoint().toString(), r));
        return reals;
    }

    private void field(String path, Object old, Object next) {
        field(path, old, next, Phase.ADD, null);
    }

    /** A change applied in place in the {@link Phase#ADD} phase by {@code apply} (null: a restart). */
    private void field(String path, Object old, Object next, Action apply) {
        field(path, old, next, Phase.ADD, apply);
    }

    private void field(String path, Object old, Object next, Phase phase, Action apply) {
        if (!Objects.equals(old, next)) {
            add(Kind.CHANGED, path, old, next, phase, apply);
        }
    }

    private void add(Kind kind, String path, Object old, Object next, Action apply) {
        add(kind, path, old, next, Phase.ADD, apply);
    }

    private void add(Kind kind, String path, Object old, Object next, Phase phase, Action apply) {
        record(kind, path, old, next, apply == null ? null : new InPlace(phase, apply));
    }

    private void record(Kind kind, String path, Object old, Object next, InPlace apply) {
        ConfigChange change = new ConfigChange(path, kind, old, next);
        changes.add(change);
        inPlace.put(change, apply);
    }

    private static String text(Duration d) {
        return Durations.format(d);
    }

    private static Integer value(OptionalInt v) {
        return v.isPresent() ? v.getAsInt() : null;
    }

    private static String keys(StickyConfig s) {
        return String.join(", ", s.keys().stream().map(StickyKind::configName).toList());
    }

    private static String sorted(Set<String> names) {
        return String.join(", ", new java.util.TreeSet<>(names));
    }
}
