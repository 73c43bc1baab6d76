package io.switchboard.packaging;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.app.LoopbackPorts;
import io.switchboard.app.Node;
import io.switchboard.cluster.ClusterHealth;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.app.Services;
import io.switchboard.app.config.ConfigLoader;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.Plugins;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.Set;
import java.util.TreeSet;

/**
 * The metric names the director exports, as Prometheus sees them: what a running node's registry
 * scrapes ({@code /metrics} serves that text) with a virtual server of each common service, and
 * every meter the plug-in modules declare ({@link Plugins#metrics()}: those registered only once a
 * gtp-inspect session opens or an R6 message passes), registered in a registry of their own and
 * scraped the same way. The node is clustered with a peer, so the cluster's meters are there (a lone
 * node has none). Meters registered only on a first event and declared nowhere (a drop
 * reason's counter, probe checks) are not here beyond what the node registers at start.
 */
final class ExportedMetrics {

    /** Prometheus's own series about each target: not the director's, but queried as one. */
    static final Set<String> PROMETHEUS_OWN = Set.of("up");

    private static Set<String> names;

    private ExportedMetrics() {
    }

    /** The names, read once (a node's start) per test JVM. */
    static synchronized Set<String> names() throws Exception {
        if (names == null) {
            Set<String> all = new TreeSet<>(ofRunningNode());
            all.addAll(declaredByPlugins());
            names = Collections.unmodifiableSet(all);
        }
        return names;
    }

    /**
     * A node clustered with one peer (a bare member sending heartbeats, as another node's would), so that
     * the cluster's meters ({@link ClusterHealth}: safety, and the per-peer lag registered once a peer's
     * first heartbeat arrives) are there; and one GC, after which the GC pause timer is (a running
     * director has had many).
     */
    private static Set<String> ofRunningNode() throws Exception {
        int nodePort = LoopbackPorts.freeTcpPort();
        int peerPort = LoopbackPorts.freeTcpPort();
        String name = "exported-metrics-" + UUID.randomUUID();
        List<String> members = List.of("127.0.0.1:" + nodePort, "127.0.0.1:" + peerPort);
        ClusterMember peer = ClusterMember.start(new ClusterConfig(true, name, members, peerPort), "127.0.0.1");
        ClusterHealth peerHealth = ClusterHealth.start(peer, new SimpleMeterRegistry());
        try {
            return ofRunningNode("""
                    cluster: { enabled: true, name: %s, bind: 127.0.0.1, port: %d, members: [%s] }
                    """.formatted(name, nodePort, String.join(", ", members)));
        } finally {
            peerHealth.close();
            peer.close();
        }
    }

    private static Set<String> ofRunningNode(String cluster) throws Exception {
        String yaml = cluster + """
                admin: { enabled: false }
                farms:
                  udp-farm:
                    reals: [ { address: 127.0.0.1, port: 9 }, { address: 127.0.0.2, port: 9 } ]
                  aaa:
                    reals: [ { address: 127.0.0.1, port: 9, secret: testing123 } ]
                  ggsn:
                    reals: [ { address: 127.0.0.1, port: 9 } ]
                virtual-servers:
                  udp:
                    listen: 127.0.0.1:0
                    service: udp
                    farm: udp-farm
                  radius:
                    listen: 127.0.0.1:0
                    service: radius
                    farm: aaa
                    clients: [ { subnet: 127.0.0.0/8, secret: testing123 } ]
                    sticky: { keys: [calling-station-id], idle: 1h }
                  gtp:
                    listen: 127.0.0.1:0
                    service: gtp
                    farm: ggsn
                    sticky: { key: imsi, idle: 1h }
                """;
        Node node = new Node(ConfigLoader.forInstalledPlugins().parse(yaml), yaml, Services.discover());
        try {
            node.startAndWait();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                System.gc();
                Set<String> names = sampleNames(node.registry().scrape());
                return names.contains("switchboard_cluster_heartbeat_age_seconds")
                        && names.contains("jvm_gc_pause_seconds_count");
            });
            return sampleNames(node.registry().scrape());
        } finally {
            node.close();
        }
    }

    private static Set<String> declaredByPlugins() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        for (MetricSpec spec : Plugins.installed().metrics()) {
            Tags tags = Tags.of("vserver", "v");
            for (String key : spec.tags()) {
                tags = tags.and(key, "x");
            }
            switch (spec.type()) {
                case COUNTER -> spec.counter().tags(tags).register(registry);
                case FUNCTION_COUNTER -> spec.functionCounter(spec, s -> 0).tags(tags).register(registry);
                case GAUGE -> spec.gauge(spec, s -> 0).tags(tags).register(registry);
                case TIMER -> Timer.builder(spec.name()).tags(tags).register(registry);
                case DISTRIBUTION_SUMMARY -> DistributionSummary.builder(spec.name()).tags(tags).register(registry);
                default -> throw new IllegalStateException("unknown meter type " + spec.type());
            }
        }
        return sampleNames(registry.scrape());
    }

    /** The names of the samples of a text exposition (a counter's {@code _total} included). */
    static Set<String> sampleNames(String exposition) {
        Set<String> found = new TreeSet<>();
        exposition.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).forEach(line -> {
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            found.add(line.substring(0, end));
        });
        return found;
    }
}
