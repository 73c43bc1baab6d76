package io.switchboard.app.ios;

import io.switchboard.director.config.PredictorKind;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * Reads {@code ip slb serverfarm} modes (and the reals of firewall farms) into {@link IosFarm}s. The
 * lines that set values are reported when the model is built (their keys depend on the virtual
 * servers that use the farm); the rest are reported here.
 */
final class IosFarmReader {

    private final IosLedger ledger;

    IosFarmReader(IosLedger ledger) {
        this.ledger = ledger;
    }

    IosFarm serverFarm(IosCommand farm) {
        IosFarm f = new IosFarm(IosValues.name(farm, 0, "the server farm name"), farm);
        for (int i = 1; i < farm.argCount(); i++) {
            if (!farm.isKeyword(i, "nat")) {
                throw farm.error(i, "unexpected '" + farm.arg(i) + "'");
            }
        }
        for (IosCommand c : farm.children()) {
            switch (c.keyword()) {
                case "real" -> real(f, c, false);
                case "predictor" -> predictor(f, c);
                case "probe" -> f.probe(c);
                case "nat" -> nat(f, c);
                case "failaction" -> failaction(f, c);
                case "bindid" -> {
                    f.bindId = c.hasArg(0) ? IosValues.integer(c, 0, 0, 65535) : 0; // IOS default 0
                    f.bindIdLine = ledger.replacing(f.bindIdLine, c);
                }
                case "access" -> ledger.unsupported(c, "interface awareness (access)");
                case "farm-weight", "kal-ap" -> ledger.unsupported(c, "the KAL-AP agent: no public KAL-AP wire format"
                        + " to answer a GSS with (docs/dfp.md)");
                default -> ledger.ignored(c, "a description");
            }
        }
        return f;
    }

    private void predictor(IosFarm f, IosCommand c) {
        if (c.negated() || c.isKeyword(0, "roundrobin")) {
            f.predictor = PredictorKind.ROUNDROBIN;
        } else if (c.isKeyword(0, "leastconns")) {
            f.predictor = PredictorKind.LEASTCONNS;
        } else if (c.isKeyword(0, "route-map")) {
            ledger.unsupported(c, "predictor route-map by name: Switchboard's route-map farm lists its prefixes"
                    + " and reals itself (farms." + f.name + ".route-map), write them by hand");
            return;
        } else {
            throw c.error(0, "expected roundrobin, leastconns or route-map");
        }
        f.predictorLine = ledger.replacing(f.predictorLine, c);
    }

    private void nat(IosFarm f, IosCommand c) {
        if (c.negated() && c.isKeyword(0, "client")) {
            // IOS SLB guide, "Configuring Server Farms": without client NAT the reals see the client's
            // address; the farm's datagram virtual servers get client-nat: false (docs/transparent.md).
            f.noClientNatLine = ledger.replacing(f.noClientNatLine, c);
        } else if (c.negated()) {
            ledger.implied(c, "Switchboard forwards every request from its own socket (directed mode)");
        } else if (c.isKeyword(0, "server")) {
            ledger.implied(c, "Switchboard forwards to the real's own address (directed server NAT)");
        } else if (c.isKeyword(0, "client")) {
            ledger.implied(c, "Switchboard forwards from its own address, so answers come back through it (as with"
                    + " client NAT)");
        } else {
            throw c.error(0, "expected nat server or nat client POOL");
        }
    }

    /** A {@code real} line and its mode; a firewall farm's real has no port. */
    void real(IosFarm f, IosCommand c, boolean firewall) {
        if (c.negated()) {
            ledger.implied(c, "a real that is not configured");
            return;
        }
        OptionalInt port = c.hasArg(1) && !firewall ? OptionalInt.of(IosValues.integer(c, 1, 1, 65535))
                : OptionalInt.empty();
        IosFarm.Real real = new IosFarm.Real(c, IosValues.ipv4(c, 0), port);
        f.reals.add(real);
        for (IosCommand r : c.children()) {
            switch (r.keyword()) {
                case "weight" -> {
                    real.weight = IosValues.integer(r, 0, 1, 255);
                    real.weightLine = ledger.replacing(real.weightLine, r);
                }
                case "inservice" -> {
                    real.inService = !r.negated();
                    real.inServiceLine = ledger.replacing(real.inServiceLine, r);
                }
                case "maxconns" -> {
                    real.maxconns = OptionalInt.of(IosValues.integer(r, 0, 1, Integer.MAX_VALUE));
                    real.maxconnsLine = ledger.replacing(real.maxconnsLine, r);
                }
                case "faildetect" -> faildetect(real, r);
                case "retry" -> {
                    real.retry = Duration.ofSeconds(IosValues.integer(r, 0, 1, 3600));
                    real.retryLine = ledger.replacing(real.retryLine, r);
                }
                case "reassign" -> {
                    real.reassign = OptionalInt.of(IosValues.integer(r, 0, 1, 16));
                    real.reassignLine = ledger.replacing(real.reassignLine, r);
                }
                case "maxclients" -> {
                    // Cisco IOS SLB Command Reference, "maxclients": the most sticky subscribers of the real.
                    real.maxclients = r.negated() ? OptionalInt.empty()
                            : OptionalInt.of(IosValues.integer(r, 0, 1, Integer.MAX_VALUE));
                    real.maxclientsLine = ledger.replacing(real.maxclientsLine, r);
                }
                case "rate" -> {
                    // Cisco IOS SLB Command Reference, "rate": the most new connections per second to the real.
                    real.rate = r.negated() ? OptionalInt.empty()
                            : OptionalInt.of(IosValues.integer(r, 0, 1, Integer.MAX_VALUE));
                    real.rateLine = ledger.replacing(real.rateLine, r);
                }
                case "probe" -> f.probe(r);
                case "backup" -> ledger.unsupported(r, "a backup real");
                default -> ledger.ignored(r, "a description");
            }
        }
    }

    /**
     * {@code failaction purge} (Cisco IOS SLB Command Reference, "failaction (server farm)"): a failed
     * real's connections are purged at once. The protocol forms ({@code gtp purge}, {@code asn purge})
     * purge their sessions and sticky entries, which Switchboard's one purge does for every service;
     * {@code radius reassign} has no counterpart.
     */
    private void failaction(IosFarm f, IosCommand c) {
        int at = c.isKeyword(0, "gtp") || c.isKeyword(0, "asn") ? 1 : 0;
        if (!c.isKeyword(at, "purge")) {
            ledger.unsupported(c, "failaction other than purge (" + c.text() + ")");
            return;
        }
        f.purge = !c.negated();
        f.failactionLine = ledger.replacing(f.failactionLine, c);
    }

    private void faildetect(IosFarm.Real real, IosCommand r) {
        if (r.isKeyword(0, "inband")) {
            // Cisco IOS SLB Command Reference, "faildetect inband (real server)": on by default;
            // "no faildetect inband" leaves failure detection to the probes.
            real.inband = !r.negated();
            real.inbandLine = ledger.replacing(real.inbandLine, r);
            return;
        }
        if (r.negated()) {
            ledger.implied(r, "the default failure detection");
            return;
        }
        if (!r.isKeyword(0, "numconns")) {
            throw r.error(0, "expected numconns N [numclients M] or inband");
        }
        real.numconns = OptionalInt.of(IosValues.integer(r, 1, 1, 255));
        if (r.hasArg(2)) {
            if (!r.isKeyword(2, "numclients")) {
                throw r.error(2, "expected numclients M");
            }
            real.numclients = OptionalInt.of(IosValues.integer(r, 3, 1, real.numconns.getAsInt()));
        }
        real.faildetectLine = ledger.replacing(real.faildetectLine, r);
    }
}
