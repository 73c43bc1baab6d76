package io.switchboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active-active behind a router (issue 21): three director nodes, each announcing the virtual
 * address by BGP through its own BIRD ({@code route-health.bgp}), the router (BIRD, ECMP) spreading
 * the client's flows over them; one node is SIGKILLed under RADIUS accounting load. Its speaker
 * withdraws the address (the node's {@code Withdrawal} fires when the process is gone), the router
 * re-hashes its flows onto the other two, and: every RADIUS request is answered (a retransmission
 * recovers those in flight at the kill), the accounting of every subscriber still reaches the
 * server that authenticated it, and every GTP session created through the dead node is deleted at
 * the PGW that holds it. The failover time and the requests that needed a retransmission are
 * printed. The other scenarios (reals unreachable, graceful stop, link down) and the replication
 * lag are measured by {@code benchmarks/bgp/run.sh}, not in the suite.
 */
class BgpEcmpNetnsIT {

    private static final int SUBSCRIBERS = 24;
    private static final int FIRST_CLIENT = 10;
    private static final String SGW = "10.10.0.2";
    private static final int SESSIONS = 6;

    @TempDir
    Path dir;

    private BgpTestNetwork net;

    @AfterEach
    void tearDown() throws Exception {
        if (net != null) {
            net.close();
        }
    }

    /** Builds the network and its daemons; all three nodes announced. */
    static BgpTestNetwork network(Path dir) throws Exception {
        BgpTestNetwork net = BgpTestNetwork.up(dir);
        try {
            net.startRouter();
            for (int i = 1; i <= 3; i++) {
                net.startSpeaker(i);
                net.startDirector(i);
            }
            net.startReals();
            net.awaitAllAnnounced(Duration.ofSeconds(60));
        } catch (Throwable e) {
            // Not yet the caller's to close: everything started so far is stopped here.
            net.printLogs();
            net.close();
            throw e;
        }
        return net;
    }

    @Test
    void sigkillOfOneOfThreeNodesLosesNoSessionAndNoBinding() throws Exception {
        net = network(dir);
        try {
            Map<String, String> servedBy = authenticate(net);
            int victim = net.nodeOf(SGW);
            int throughVictim = 0;
            for (int i = 0; i < SUBSCRIBERS; i++) {
                throughVictim += net.nodeOf("10.10.0." + (FIRST_CLIENT + i)) == victim ? 1 : 0;
            }
            assertThat(throughVictim).as("subscribers the router hashes to node %d", victim).isPositive();

            BgpTestNetwork.ScapyDriver sgw = net.sgw(SGW);
            for (int k = 0; k < SESSIONS; k++) {
                JsonObject created = sgw.command(new JsonObject().put("cmd", "create").put("imsi", imsi(k)));
                assertThat(created.getBoolean("ok")).as("create %s: %s", imsi(k), created).isTrue();
            }

            Process load = nas("load", SUBSCRIBERS, 4, 5);
            // Under way when every subscriber has been accounted once, at the server that authenticated it.
            await().atMost(Duration.ofSeconds(20)).until(() -> net.accountedAt(0).size() + net.accountedAt(1).size()
                    >= SUBSCRIBERS);
            long killed = System.nanoTime();
            net.director(victim).destroyForcibly();
            String gone = BgpTestNetwork.routerSide(victim);
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                    .until(() -> !net.nexthops().contains(gone));
            long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            assertThat(net.nexthops()).hasSize(2);

            assertThat(load.waitFor(30, TimeUnit.SECONDS)).isTrue();
            JsonObject counts = new JsonObject(new String(load.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            System.out.printf("BgpEcmpNetnsIT: SIGKILL of node %d (%d of %d subscribers and the SGW hashed to it):"
                    + " withdrawn at the router after %d ms; accounting: %s%n", victim, throughVictim, SUBSCRIBERS,
                    failoverMillis, counts.encode());
            assertThat(counts.getInteger("lost")).as("requests never answered: %s", counts).isZero();
            assertThat(counts.getInteger("answered")).isEqualTo(counts.getInteger("sent"));

            // The sessions made through the dead node: their Delete reaches the PGW that holds them.
            for (int k = 0; k < SESSIONS; k++) {
                JsonObject deleted = sgw.command(new JsonObject().put("cmd", "delete").put("imsi", imsi(k)));
                assertThat(deleted.getBoolean("ok")).as("delete %s: %s", imsi(k), deleted).isTrue();
            }
            for (BgpTestNetwork.ScapyDriver pgw : net.pgws()) {
                JsonObject held = pgw.command(new JsonObject().put("cmd", "sessions"));
                assertThat(held.getJsonArray("sessions", new JsonArray())).as("sessions left: %s", held).isEmpty();
            }
            // The bindings: accounting only ever at the server that authenticated the subscriber.
            List<java.util.Set<String>> accounted = List.of(net.accountedAt(0), net.accountedAt(1));
            for (int i = 0; i < SUBSCRIBERS; i++) {
                int server = servedBy.get("sub-" + i).equals("served by aaa0") ? 0 : 1;
                assertThat(accounted.get(server)).as("csid-%d accounted at aaa%d", i, server).contains("csid-" + i);
                assertThat(accounted.get(1 - server)).as("csid-%d accounted at aaa%d", i, 1 - server)
                        .doesNotContain("csid-" + i);
            }
        } catch (Throwable e) {
            net.printLogs();
            throw e;
        }
    }

    static String imsi(int k) {
        return String.format("0010100000%05d", k);
    }

    /** Every subscriber authenticated through the address; by which server. */
    private Map<String, String> authenticate(BgpTestNetwork net) throws Exception {
        Process auth = nas("auth", SUBSCRIBERS);
        assertThat(auth.waitFor(30, TimeUnit.SECONDS)).isTrue();
        JsonObject served = new JsonObject(new String(auth.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        Map<String, String> servedBy = new HashMap<>();
        served.forEach(e -> servedBy.put(e.getKey(), (String) e.getValue()));
        assertThat(servedBy).as("Access-Accepts").hasSize(SUBSCRIBERS).doesNotContainValue(null);
        return servedBy;
    }

    private Process nas(String mode, Object... args) throws IOException {
        return nas(net, dir, mode, args);
    }

    /** radius_nas.py MODE in the client namespace, the subscribers' addresses from FIRST_CLIENT on. */
    static Process nas(BgpTestNetwork net, Path dir, String mode, Object... args) throws IOException {
        List<Object> all = new ArrayList<>(List.of(FIRST_CLIENT));
        all.addAll(List.of(args));
        return nasRaw(net, dir, mode, all.toArray());
    }

    /** radius_nas.py MODE VIP SECRET ARGS in the client namespace. */
    static Process nasRaw(BgpTestNetwork net, Path dir, String mode, Object... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", net.ns("c"), "/usr/bin/python3",
                BgpTestNetwork.NAS.toString(), mode, BgpTestNetwork.VIP, BgpTestNetwork.NAS_SECRET));
        for (Object a : args) {
            command.add(a.toString());
        }
        return new ProcessBuilder(command).redirectError(dir.resolve("nas-" + mode + ".err").toFile()).start();
    }
}
