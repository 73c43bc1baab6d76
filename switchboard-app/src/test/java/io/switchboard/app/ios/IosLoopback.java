package io.switchboard.app.ios;

import io.switchboard.app.Node;
import io.switchboard.app.Services;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts a director from an example IOS configuration the way {@code run -c example.ios} does (the
 * translation written as YAML and loaded by the configuration loader), except for the addresses:
 * the examples use their networks' well-known addresses, which a test cannot bind, so every virtual
 * server listens on 127.0.0.1 with an ephemeral port, the admin API on 127.0.0.1:0, and each real
 * is replaced by the loopback endpoint of the test's stand-in for it (by the real's IOS address).
 * Weights, states, failure detection, sticky settings, backups and service options stay as
 * translated.
 */
public final class IosLoopback {

    private IosLoopback() {
    }

    /** The example's text from src/test/resources/ios. */
    public static String example(String name) throws IOException {
        try (InputStream in = IosLoopback.class.getResourceAsStream("/ios/" + name)) {
            if (in == null) {
                throw new IOException("no example /ios/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** IOS text as {@code run -c} loads it, reals moved to {@code reals} (IOS address to stand-in). */
    public static SwitchboardConfig load(String iosText, Optional<String> radiusSecret,
            Map<String, InetSocketAddress> reals) {
        IosTranslation t = new IosTranslator(new IosTranslator.Options(radiusSecret)).translate(iosText);
        SwitchboardConfig loaded = new ConfigLoader(Services.discover().available())
                .parse(IosYamlWriter.write(t, "a test's IOS configuration"));
        return onLoopback(loaded, reals);
    }

    /** A node running the example of src/test/resources/ios on loopback, started. */
    public static Node start(String example, Optional<String> radiusSecret, Map<String, InetSocketAddress> reals)
            throws Exception {
        return startText(example(example), radiusSecret, reals);
    }

    /** A node running IOS text on loopback, started. */
    public static Node startText(String iosText, Optional<String> radiusSecret, Map<String, InetSocketAddress> reals)
            throws Exception {
        Services services = Services.discover();
        Node node = new Node(load(iosText, radiusSecret, reals), services);
        try {
            node.startAndWait();
        } catch (Exception e) {
            node.close();
            throw e;
        }
        return node;
    }

    static SwitchboardConfig onLoopback(SwitchboardConfig c, Map<String, InetSocketAddress> reals) {
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        c.farms().forEach((name, f) -> {
            List<RealConfig> moved = new ArrayList<>();
            for (RealConfig r : f.reals()) {
                InetSocketAddress to = reals.get(r.address().getHostAddress());
                if (to == null) {
                    throw new IllegalArgumentException("no stand-in for real " + r.address().getHostAddress()
                            + " of farm " + name);
                }
                moved.add(new RealConfig(to.getAddress(), to.getPort(), r.weight(), r.maxconns(), r.inService(),
                        r.values()));
            }
            farms.put(name, new FarmConfig(name, f.predictor(), f.failure(), moved, f.backup(), f.probes(),
                    f.slowStart(), f.routeMap()));
        });
        Map<String, VirtualServerConfig> servers = new LinkedHashMap<>();
        c.virtualServers().forEach((name, vs) -> servers.put(name, new VirtualServerConfig(name,
                new Endpoint(InetAddress.getLoopbackAddress(), 0), vs.service(), vs.farm(), vs.sticky(),
                vs.responseTimeout(), vs.idle(), vs.maxDatagram(), vs.inService(), vs.options())));
        AdminConfig admin = new AdminConfig(true, new Endpoint(InetAddress.getLoopbackAddress(), 0), Optional.empty());
        return new SwitchboardConfig(c.cluster(), admin, farms, servers, c.probes(), c.routeHealth(),
                c.debugCapture(), c.dispatched());
    }
}
