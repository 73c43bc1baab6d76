package io.switchboard.app.ios;

import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * What one {@code ip slb serverfarm} says: its predictor and probes, and its reals with the lines
 * that set each of their values. Failure detection, retry and reassign are real-server commands in
 * IOS and farm-wide (or virtual-server) settings in Switchboard; {@link IosFarmReader} reconciles them.
 */
final class IosFarm {

    final String name;
    final IosCommand command;
    PredictorKind predictor = PredictorKind.ROUNDROBIN;
    IosCommand predictorLine;
    /** {@code bindid}: the bind ID DFP agents weigh this farm's reals by (dfp.bind-ids). */
    int bindId;
    IosCommand bindIdLine;
    /** {@code no nat client}: the farm's reals see the clients' own addresses (client-nat: false). */
    IosCommand noClientNatLine;
    final List<String> probes = new ArrayList<>();
    final List<IosCommand> probeLines = new ArrayList<>();
    /** Lines naming a probe already named (a firewall farm names its probes per real): probe index by line. */
    final java.util.Map<IosCommand, String> repeatedProbes = new java.util.LinkedHashMap<>();
    final List<Real> reals = new ArrayList<>();
    /** {@code failaction purge}: a failed real's bindings and sessions removed at once (failure.purge). */
    boolean purge;
    IosCommand failactionLine;

    /** A {@code probe NAME} line of the farm or one of its reals; a farm runs each probe once. */
    void probe(IosCommand line) {
        String probe = IosValues.name(line, 0, "the probe name");
        if (probes.contains(probe)) {
            repeatedProbes.put(line, probe);
        } else {
            probes.add(probe);
            probeLines.add(line);
        }
    }

    IosFarm(String name, IosCommand command) {
        this.name = name;
        this.command = command;
    }

    /** One {@code real ADDRESS [PORT]} and the lines of its mode. */
    static final class Real {
        final IosCommand command;
        final InetAddress address;
        /** Empty: the port of the virtual server (IOS forwards to the port the client sent to). */
        final OptionalInt port;
        int weight = RealConfig.DEFAULT_WEIGHT;
        IosCommand weightLine;
        OptionalInt maxconns = OptionalInt.empty();
        IosCommand maxconnsLine;
        boolean inService;
        IosCommand inServiceLine;
        OptionalInt numconns = OptionalInt.empty();
        OptionalInt numclients = OptionalInt.empty();
        IosCommand faildetectLine;
        Duration retry = FailureDetection.DEFAULT.retry();
        IosCommand retryLine;
        OptionalInt reassign = OptionalInt.empty();
        IosCommand reassignLine;
        OptionalInt rate = OptionalInt.empty();
        IosCommand rateLine;
        OptionalInt maxclients = OptionalInt.empty();
        IosCommand maxclientsLine;
        /** {@code no faildetect inband}: probes only (failure.inband: false). */
        boolean inband = true;
        IosCommand inbandLine;

        Real(IosCommand command, InetAddress address, OptionalInt port) {
            this.command = command;
            this.address = address;
            this.port = port;
        }

        /** This real's failure detection with IOS's defaults (numclients at most numconns, as the binder does). */
        FailureDetection failure() {
            int conns = numconns.orElse(FailureDetection.DEFAULT.numconns());
            int clients = numclients.orElse(Math.min(FailureDetection.DEFAULT.numclients(), conns));
            return new FailureDetection(conns, clients, retry, inband, false);
        }
    }
}
