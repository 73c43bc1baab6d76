package io.switchboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;

/**
 * The tables {@code switchboard show} prints from the admin API's JSON, with the columns of the IOS SLB
 * command they stand for ({@code show ip slb reals}, {@code vservers}, {@code serverfarms}, {@code sticky},
 * {@code probe}, {@code stats}) and states by their IOS names; what IOS does not have (sessions by TEID, the
 * cluster) in the same style. One function per table; {@code --json} skips them all.
 */
final class ShowTables {

    private static final String RULE = "-".repeat(97);

    private ShowTables() {
    }

    /** IOS {@code show ip slb reals}: real, farm name, weight, state, conns (and the director's counters). */
    static void reals(JsonNode farms, boolean detail, PrintWriter out) {
        if (detail) {
            for (JsonNode farm : farms) {
                for (JsonNode real : farm.get("reals")) {
                    out.printf("%s, %s, state = %s%n", real.get("real").asText(), farm.get("name").asText(),
                            real.get("state").asText());
                    out.printf("  weight = %d (static %d), conns = %d, maxconns = %s%n", real.get("weight").asInt(),
                            real.get("staticWeight").asInt(), real.get("connections").asInt(),
                            real.get("maxconns").isNull() ? "none" : real.get("maxconns").asText());
                    out.printf("  requests = %d, answered = %d, unanswered = %d%n", real.get("requests").asLong(),
                            real.get("answered").asLong(), real.get("unanswered").asLong());
                    out.printf("  failures = %d, consecutive failures = %d%s%n", real.get("failures").asLong(),
                            real.get("consecutiveFailures").asInt(),
                            real.get("drain").isNull() ? "" : ", draining (" + real.get("drain") + ")");
                }
            }
            return;
        }
        String format = "%-24s %-14s %6s %-20s %7s %10s %10s%n";
        out.printf(format, "real", "farm name", "weight", "state", "conns", "requests", "failures");
        out.println(RULE);
        for (JsonNode farm : farms) {
            for (JsonNode real : farm.get("reals")) {
                out.printf(format, real.get("real").asText(), farm.get("name").asText(), real.get("weight").asInt(),
                        real.get("state").asText(), real.get("connections").asInt(), real.get("requests").asLong(),
                        real.get("failures").asLong());
            }
        }
    }

    /** IOS {@code show ip slb vservers}: slb vserver, prot, virtual, state (and forwarded, sticky entries). */
    static void vservers(JsonNode vservers, PrintWriter out) {
        String format = "%-16s %-12s %-24s %-14s %-12s %10s %8s%n";
        out.printf(format, "slb vserver", "prot", "virtual", "farm", "state", "forwarded", "sticky");
        out.println(RULE);
        for (JsonNode v : vservers) {
            out.printf(format, v.get("name").asText(), v.get("service").asText(), v.get("listen").asText(),
                    v.get("farm").asText(), v.get("inService").asBoolean() ? "OPERATIONAL" : "OUTOFSERVICE",
                    v.get("forwarded").asLong(), v.get("stickyEntries").isNull() ? "-" : v.get("stickyEntries").asText());
        }
    }

    /** IOS {@code show ip slb serverfarms}: server farm, predictor, reals (operational of all), backup. */
    static void serverfarms(JsonNode farms, boolean detail, PrintWriter out) {
        String format = "%-20s %-16s %8s %8s %-16s%n";
        out.printf(format, "server farm", "predictor", "reals", "oper", "backup");
        out.println(RULE);
        for (JsonNode farm : farms) {
            int operational = 0;
            for (JsonNode real : farm.get("reals")) {
                operational += "OPERATIONAL".equals(real.get("state").asText()) ? 1 : 0;
            }
            out.printf(format, farm.get("name").asText(), farm.get("predictor").asText().toUpperCase(java.util.Locale.ROOT),
                    farm.get("reals").size(), operational, farm.get("backup").isNull() ? "-" : farm.get("backup").asText());
            if (detail) {
                for (JsonNode real : farm.get("reals")) {
                    out.printf("  real %s, weight %d, %s, conns %d%n", real.get("real").asText(),
                            real.get("weight").asInt(), real.get("state").asText(), real.get("connections").asInt());
                }
            }
        }
    }

    /** IOS {@code show ip slb sticky}: the key, its kind, the farm and real it is stuck to, and for how long idle. */
    static void sticky(JsonNode listing, PrintWriter out) {
        String format = "%-28s %-20s %-14s %-24s %6s%n";
        out.printf(format, "key", "kind", "farm", "real", "idle s");
        out.println(RULE);
        for (JsonNode e : listing.get("entries")) {
            out.printf(format, e.get("key").asText(), e.get("kind").asText(), e.get("farm").asText(),
                    e.get("real").asText(), e.get("idleSeconds").asLong());
        }
        out.printf("%d of %d bindings listed%n", listing.get("listed").asLong(), listing.get("total").asLong());
    }

    /** The plug-ins' sessions (IOS {@code show ip slb sessions gtp}): the director's id, subscriber, real. */
    static void sessions(JsonNode sessions, PrintWriter out) {
        String format = "%-16s %-20s %-14s %-24s %s%n";
        out.printf(format, "session", "subscriber", "farm", "real", "detail");
        out.println(RULE);
        for (JsonNode s : sessions) {
            out.printf(format, s.get("id").asText(), s.get("key").isNull() ? "-" : s.get("key").asText(),
                    s.get("farm").asText(), s.get("real").asText(), s.get("detail").asText());
        }
        out.printf("%d sessions%n", sessions.size());
    }

    /** IOS {@code show ip slb probe}: each probe, its type and timing, and the verdict on each real it checks. */
    static void probes(JsonNode probes, PrintWriter out) {
        for (JsonNode p : probes) {
            out.printf("probe %s, type %s, interval %s, timeout %s, failures %d, farms %s%n", p.get("name").asText(),
                    p.get("type").asText(), p.get("interval").asText(), p.get("timeout").asText(),
                    p.get("failures").asInt(), p.get("farms"));
            for (JsonNode r : p.get("reals")) {
                out.printf("  %-24s %-14s %-20s %s%n", r.get("real").asText(), r.get("farm").asText(),
                        r.get("state").asText(), r.get("probesFailing").asBoolean() ? "probe failing" : "probe passing");
            }
        }
    }

    /** IOS {@code show ip slb stats}: the node's totals since counters were last cleared. */
    static void stats(JsonNode stats, PrintWriter out) {
        out.printf("Requests received:            %d%n", stats.get("received").asLong());
        out.printf("Requests forwarded to reals:  %d%n", stats.get("forwarded").asLong());
        out.printf("Answers relayed:              %d%n", stats.get("relayed").asLong());
        out.printf("Requests expired unanswered:  %d%n", stats.get("expired").asLong());
        out.printf("Real failures:                %d%n", stats.get("realFailures").asLong());
        out.printf("Counters cleared:             %s%n",
                stats.get("countersCleared").isNull() ? "never" : stats.get("countersCleared").asText());
    }

    /** The cluster's members as {@code GET /api/v1/cluster} reports them, with their configuration digests. */
    static void cluster(JsonNode cluster, PrintWriter out) {
        if (!cluster.path("enabled").asBoolean(false)) {
            out.println("cluster: not enabled (a single node)");
            return;
        }
        out.printf("cluster %s, this node's slot %s, safe: %s, digests agree: %s%n", cluster.path("name").asText("-"),
                cluster.path("slot").asText("-"), cluster.path("safe").asText("-"),
                cluster.path("configDigestsAgree").asText("-"));
        String format = "%-32s %-6s %-12s %-20s%n";
        out.printf(format, "member", "local", "version", "config digest");
        out.println(RULE);
        for (JsonNode m : cluster.path("members")) {
            out.printf(format, m.path("address").asText("-"), m.path("local").asBoolean() ? "yes" : "",
                    m.path("version").asText("-"), m.path("configDigest").asText("-"));
        }
    }
}
