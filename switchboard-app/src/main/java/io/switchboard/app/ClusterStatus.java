package io.switchboard.app;

import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.UnlistedMembers;
import io.switchboard.director.Director;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.sticky.StickyTable;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code GET /api/v1/cluster} shows: the members with their version and configuration digest,
 * whether the digests agree, and this node's sticky counts and counters. Every node of a cluster
 * must run the same configuration ({@link io.switchboard.app.reload.RunningConfig#digest}); one whose
 * digest differs says so in its log and here.
 */
final class ClusterStatus {

    /** How long {@code /api/v1/cluster} waits for the cluster's safety check; past it, not safe. */
    private static final java.time.Duration SAFE_WITHIN = java.time.Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(ClusterStatus.class);
    static final String VERSION = "0.1.0";
    static final String VERSION_ATTRIBUTE = "switchboard.version";
    static final String DIGEST_ATTRIBUTE = "switchboard.config-digest";

    private final SwitchboardConfig config;
    private volatile String digest;
    private final ClusterMember member;
    private final Director director;
    /** Null on a single node. */
    private final UnlistedMembers unlisted;

    ClusterStatus(SwitchboardConfig config, String digest, ClusterMember member, Director director,
            UnlistedMembers unlisted) {
        this.config = config;
        this.unlisted = unlisted;
        this.digest = digest;
        this.member = member;
        this.director = director;
    }

    /**
     * The running configuration changed (a reload): its digest is shown here and announced to the
     * other members, whose mismatch check runs again on the news.
     */
    void digest(String newDigest) {
        digest = newDigest;
        if (member != null) {
            member.announce(DIGEST_ATTRIBUTE, newDigest);
        }
    }

    static Map<String, String> attributes(String digest) {
        return Map.of(VERSION_ATTRIBUTE, VERSION, DIGEST_ATTRIBUTE, digest);
    }

    /** Logs a warning when members run different configurations; true when all agree. */
    boolean checkDigests() {
        Set<String> digests = digests();
        if (digests.size() > 1) {
            LOG.warn("cluster {}: members run different configurations (digests {}); this node has {}",
                    config.cluster().name(), digests, digest);
            return false;
        }
        return true;
    }

    /** How many configurations the members run: 1 when they agree (the gauge of a mismatch). */
    int distinctDigests() {
        return digests().size();
    }

    private Set<String> digests() {
        Set<String> digests = new TreeSet<>();
        digests.add(digest);
        if (member != null) {
            member.members().stream().filter(m -> !m.local())
                    .forEach(m -> digests.add(m.attributes().getOrDefault(DIGEST_ATTRIBUTE, "unknown")));
        }
        return digests;
    }

    JsonObject toJson() {
        JsonArray members = new JsonArray();
        if (member == null) {
            members.add(new JsonObject().put("address", "local").put("local", true).put("version", VERSION)
                    .put("configDigest", digest));
        } else if (member.hazelcast().getLifecycleService().isRunning()) {
            for (ClusterMember.MemberView m : member.members()) {
                members.add(new JsonObject()
                        .put("address", m.address().getAddress().getHostAddress() + ":" + m.address().getPort())
                        .put("local", m.local())
                        .put("version", m.attributes().getOrDefault(VERSION_ATTRIBUTE, "unknown"))
                        .put("configDigest", m.local() ? digest
                                : m.attributes().getOrDefault(DIGEST_ATTRIBUTE, "unknown")));
            }
        }
        JsonObject sticky = new JsonObject();
        JsonObject counters = new JsonObject();
        for (VirtualServer vs : director.virtualServers().values()) {
            StickyTable table = vs.selector().sticky();
            if (table != null) {
                sticky.put(table.name(), table.size());
            }
            counters.put(vs.name(), new JsonObject()
                    .put("forwarded", (long) vs.metrics().forwardedCount())
                    .put("relayed", (long) vs.metrics().relayedCount())
                    .put("expired", (long) vs.metrics().expiredCount()));
        }
        return new JsonObject()
                .put("enabled", config.cluster().enabled())
                .put("name", config.cluster().name())
                .put("configDigest", digest)
                .put("configDigestsAgree", digests().size() == 1)
                .put("slot", member == null ? 0 : member.slot().index())
                // Every partition's backups in place: a member may now leave (or fail) without a loss,
                // the condition a rolling upgrade waits for before it stops the next node.
                .put("safe", member == null || member.safe(SAFE_WITHIN))
                .put("members", members)
                // Members admitted from addresses cluster.members does not name (Hazelcast admits any
                // process with the cluster's name): each one is also an error in the log.
                .put("unlistedMembers", new JsonArray(unlisted == null ? java.util.List.of() : unlisted.present()
                        .stream().map(a -> (Object) (a.getAddress().getHostAddress() + ":" + a.getPort())).toList()))
                .put("unlistedMembersSeen", unlisted == null ? 0 : unlisted.count())
                .put("stickyEntries", sticky)
                .put("counters", counters);
    }
}
