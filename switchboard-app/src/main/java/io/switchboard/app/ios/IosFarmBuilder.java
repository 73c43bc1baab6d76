package io.switchboard.app.ios;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.RealLimits;
import io.switchboard.director.config.RemovalPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the farms of the model from the IOS farms and the virtual servers that use them. An IOS
 * real without a port takes the port of the virtual server (IOS forwards to the port the client
 * sent to), while a Switchboard real has one port: a farm used on several ports with such reals
 * becomes one farm per port ({@code NAME-PORT}). Reports every value line of the farms, with the
 * keys of every farm it went into.
 */
final class IosFarmBuilder {

    /** A firewall has no port; the model's real needs one, and the firewall farm never uses it. */
    static final int FIREWALL_PORT = 1;

    private final IosLedger ledger;
    private final Map<String, IosFarm> farms;
    private final Set<String> firewallFarms;
    /** The ports each IOS farm is used on (for reals without one), in order of use. */
    private final Map<String, Set<Integer>> ports = new LinkedHashMap<>();
    private final Map<String, String> backups = new LinkedHashMap<>();
    /** The keys each line went into, reported once at the end. */
    private final Map<IosCommand, List<String>> keys = new LinkedHashMap<>();

    IosFarmBuilder(IosLedger ledger, Map<String, IosFarm> farms, Set<String> firewallFarms) {
        this.ledger = ledger;
        this.farms = farms;
        this.firewallFarms = firewallFarms;
    }

    /** A virtual server sends to {@code farm} (and its backup) on {@code port}. */
    void use(String farm, int port, IosCommand where, int argument) {
        IosFarm f = farms.get(farm);
        if (f == null || firewallFarms.contains(farm)) {
            throw where.error(argument, "no ip slb serverfarm named " + farm);
        }
        ports.computeIfAbsent(farm, k -> new LinkedHashSet<>()).add(port);
    }

    /**
     * {@code serverfarm PRIMARY backup BACKUP}: Switchboard keeps the backup on the primary farm, so
     * all virtual servers using the primary must name the same backup.
     */
    void backup(String primary, String backup, IosCommand where) {
        String first = backups.putIfAbsent(primary, backup);
        if (first != null && !first.equals(backup)) {
            throw where.error(2, "farm " + primary + " already has backup " + first + " (Switchboard keeps one"
                    + " backup per farm, not per virtual server)");
        }
    }

    /** IOS farm {@code farm}'s {@code no nat client} line, or null. */
    IosCommand noClientNat(String farm) {
        return farms.get(farm).noClientNatLine;
    }

    /** The model's name of IOS farm {@code farm} as used on {@code port}. */
    String instance(String farm, int port) {
        return split(farm) ? farm + "-" + port : farm;
    }

    private boolean split(String farm) {
        return ports.getOrDefault(farm, Set.of()).size() > 1
                && farms.get(farm).reals.stream().anyMatch(r -> r.port.isEmpty());
    }

    /** Every farm of the model, in the order of the IOS farms. */
    Map<String, FarmConfig> build() {
        Map<String, FarmConfig> built = new LinkedHashMap<>();
        for (IosFarm farm : farms.values()) {
            Set<Integer> used = ports.getOrDefault(farm.name, Set.of());
            boolean explicit = farm.reals.stream().allMatch(r -> r.port.isPresent());
            if (firewallFarms.contains(farm.name)) {
                built.put(farm.name, farm(farm, farm.name, FIREWALL_PORT));
            } else if (used.isEmpty() && !explicit) {
                IosTranslator.ignoredWithChildren(ledger, farm.command, "not used by any virtual server (its reals"
                        + " take the port of the virtual server that uses them)");
            } else if (used.isEmpty() || explicit) {
                built.put(farm.name, farm(farm, farm.name, used.isEmpty() ? 0 : used.iterator().next()));
            } else {
                for (int port : used) {
                    String name = instance(farm.name, port);
                    built.put(name, farm(farm, name, port));
                }
            }
        }
        for (IosFarm farm : farms.values()) {
            if (farm.noClientNatLine != null && !keys.containsKey(farm.noClientNatLine)) {
                ledger.implied(farm.noClientNatLine, "no datagram virtual server uses the farm");
            }
        }
        keys.forEach(ledger::translated);
        return built;
    }

    private FarmConfig farm(IosFarm farm, String name, int port) {
        String path = "farms." + name;
        key(farm.command, path);
        key(farm.predictorLine, path + ".predictor");
        for (int i = 0; i < farm.probeLines.size(); i++) {
            key(farm.probeLines.get(i), path + ".probes[" + i + "]");
        }
        farm.repeatedProbes.forEach((line, probe) -> key(line, path + ".probes[" + farm.probes.indexOf(probe) + "]"));
        FailureDetection perReal = failure(farm, path);
        key(farm.failactionLine, path + ".failure.purge");
        FailureDetection failure = new FailureDetection(perReal.numconns(), perReal.numclients(), perReal.retry(),
                perReal.inband(), farm.purge);
        List<RealConfig> reals = new ArrayList<>();
        for (int i = 0; i < farm.reals.size(); i++) {
            IosFarm.Real r = farm.reals.get(i);
            String real = path + ".reals[" + i + "]";
            key(r.command, real + ".address");
            key(r.weightLine, real + ".weight");
            key(r.maxconnsLine, real + ".maxconns");
            key(r.rateLine, real + ".rate");
            key(r.maxclientsLine, real + ".maxclients");
            key(r.inServiceLine, real + ".inservice");
            reals.add(new RealConfig(r.address, r.port.orElse(port), r.weight, r.maxconns, r.inService, Map.of(),
                    RemovalPolicy.DEFAULT, new RealLimits(r.rate, r.maxclients)));
        }
        Optional<String> backup = Optional.ofNullable(backups.get(farm.name)).map(b -> instance(b, port));
        return new FarmConfig(name, farm.predictor, failure, reals, backup, farm.probes);
    }

    /**
     * The farm's failure detection: the reals' {@code faildetect} and {@code retry}, which IOS sets
     * per real. Where the reals disagree, the first real's values hold and the others' lines are
     * reported unsupported (once).
     */
    private FailureDetection failure(IosFarm farm, String path) {
        if (farm.reals.isEmpty()) {
            return FailureDetection.DEFAULT;
        }
        FailureDetection first = farm.reals.get(0).failure();
        for (IosFarm.Real r : farm.reals) {
            if (r.failure().equals(first)) {
                key(r.faildetectLine, path + ".failure.numconns", path + ".failure.numclients");
                key(r.retryLine, path + ".failure.retry");
                key(r.inbandLine, path + ".failure.inband");
            } else {
                String why = "per-real failure detection: Switchboard's is per farm (" + path + ".failure is "
                        + first.numconns() + "/" + first.numclients() + "/" + first.retry().toSeconds() + "s from the"
                        + " first real)";
                unsupportedOnce(r.faildetectLine, why);
                unsupportedOnce(r.retryLine, why);
                unsupportedOnce(r.inbandLine, why);
            }
        }
        return first;
    }

    /**
     * The {@code reassign} of a farm's reals for the TCP virtual servers using it: one value when the
     * reals agree (their lines translated to {@code key}), else the first real's (the others reported).
     */
    java.util.OptionalInt reassign(String farm, String key) {
        IosFarm f = farms.get(farm);
        java.util.OptionalInt first = f.reals.stream().filter(r -> r.reassign.isPresent()).findFirst()
                .map(r -> r.reassign).orElse(java.util.OptionalInt.empty());
        for (IosFarm.Real r : f.reals) {
            if (r.reassign.equals(first)) {
                key(r.reassignLine, key);
            } else {
                unsupportedOnce(r.reassignLine, "per-real reassign: Switchboard's is per virtual server (" + key
                        + " from the first real that has one)");
            }
        }
        return first;
    }

    /** Lines with reassign that no TCP virtual server used: implied (datagram services do not reassign). */
    void reportUnusedReassign() {
        for (IosFarm f : farms.values()) {
            for (IosFarm.Real r : f.reals) {
                if (r.reassignLine != null && !keys.containsKey(r.reassignLine) && !reported.contains(r.reassignLine)) {
                    reported.add(r.reassignLine);
                    ledger.implied(r.reassignLine, "TCP session reassignment: for datagram services an unanswered"
                            + " request counts as a failure instead");
                }
            }
        }
    }

    private final Set<IosCommand> reported = new java.util.HashSet<>();

    private void unsupportedOnce(IosCommand line, String why) {
        if (line != null && reported.add(line)) {
            ledger.unsupported(line, why);
        }
    }

    /** Lines whose fate another part reports (a firewall farm without links): not reported as keys. */
    private final Set<IosCommand> reportedElsewhere = new java.util.HashSet<>();

    void reportedElsewhere(IosCommand line) {
        reportedElsewhere.add(line);
    }

    /** {@code line} also set {@code path} (a key outside the farm, reported with the farm's keys). */
    void cite(IosCommand line, String path) {
        key(line, path);
    }

    private void key(IosCommand line, String... paths) {
        if (line != null && !reportedElsewhere.contains(line)) {
            List<String> list = keys.computeIfAbsent(line, k -> new ArrayList<>());
            for (String p : paths) {
                if (!list.contains(p)) {
                    list.add(p);
                }
            }
        }
    }
}
