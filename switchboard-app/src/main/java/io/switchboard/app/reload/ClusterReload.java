package io.switchboard.app.reload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A reload given to one node of a cluster reaches every node (issue 19, item 4): the configuration a
 * node accepted from its operator (applied, or the same as it runs) is published on the clustered
 * event bus, and every other node reloads it as its own operator had given it — validated, diffed,
 * applied or refused by its own {@link Reloader}, logged, counted and its digest announced, so that
 * {@code GET /api/v1/cluster} shows at once which nodes run what. A node never publishes what it got
 * from the bus, so a reload travels once. A node that was down at the time starts from its own file:
 * the digests tell the operator it differs.
 *
 * <p>What travels is what every node must share, the sections the digest covers ({@link #SHARED}:
 * probes, farms, virtual servers); each node keeps its own other sections (its cluster bind and
 * port, its admin listener, route health, debug captures, dispatched farms and their interfaces).
 */
public final class ClusterReload implements AutoCloseable {

    /** The event bus address (a wire constant between nodes). */
    static final String ADDRESS = "switchboard.config.reload";
    /** The sections every node shares ({@link RunningConfig#digest}). */
    static final List<String> SHARED = List.of("probes", "farms", "virtual-servers");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Logger LOG = LoggerFactory.getLogger(ClusterReload.class);

    private final Vertx vertx;
    private final String node = UUID.randomUUID().toString();
    private final MessageConsumer<JsonObject> consumer;

    /** Starts listening for the other nodes' reloads, and has {@code reloader} share what it accepts. */
    public ClusterReload(Vertx vertx, Reloader reloader, String nodeName) {
        this.vertx = vertx;
        this.consumer = vertx.eventBus().consumer(ADDRESS, message -> {
            JsonObject body = message.body();
            if (node.equals(body.getString("from"))) {
                return;
            }
            String source = "the cluster (node " + body.getString("name", "?") + ")";
            // Reloading may log and, in a cluster, wait for the real-state map: off the event loop.
            vertx.executeBlocking(() -> {
                String merged;
                try {
                    merged = withSharedSections(reloader.running().yaml(), body.getString("yaml"));
                } catch (IOException e) {
                    return reloader.unreadable("the configuration from " + source + " cannot be read: " + e.getMessage(),
                            source);
                }
                return reloader.reloadShared(merged, source);
            }, false);
        });
        reloader.shareWith(yaml -> {
            LOG.info("configuration published to the cluster's other nodes");
            vertx.eventBus().publish(ADDRESS, new JsonObject().put("from", node).put("name", nodeName)
                    .put("yaml", yaml));
        });
    }

    /**
     * This node's document with the shared sections of {@code published} instead of its own (a
     * section the published one lacks, this node drops too). Comments and layout are not kept.
     */
    static String withSharedSections(String local, String published) throws IOException {
        JsonNode mine = YAML.readTree(local);
        JsonNode theirs = YAML.readTree(published);
        ObjectNode merged = mine instanceof ObjectNode o ? o : YAML.createObjectNode();
        for (String section : SHARED) {
            JsonNode shared = theirs == null ? null : theirs.get(section);
            if (shared == null) {
                merged.remove(section);
            } else {
                merged.set(section, shared);
            }
        }
        return YAML.writeValueAsString(merged);
    }

    @Override
    public void close() {
        consumer.unregister();
    }
}
