package io.switchboard.director.radius;

import static io.switchboard.director.radius.DaeTestBed.AAA_SECRET;
import static io.switchboard.director.radius.DaeTestBed.NAS_SECRET;
import static io.switchboard.director.radius.DaeTestBed.accounting;
import static io.switchboard.director.radius.DaeTestBed.radclient;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.TestMembers;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.director.Director;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two director nodes in one JVM, each on its own Vert.x with its own Hazelcast member (as
 * GtpClusterIT): a session learnt from the Accounting-Start that radclient (the NAS, 127.0.24.7) sent
 * through node A is found by node B, where radclient (the AAA, 127.0.24.5) sends its CoA; the CoA
 * reaches the NAS stand-in on 127.0.24.7:3799 and its ACK comes back to the AAA.
 */
class DaeClusterIT {

    private static final Duration WAIT = Duration.ofSeconds(15);

    @TempDir
    Path work;

    private final TestMembers cluster = new TestMembers();
    private final List<Director> directors = new ArrayList<>();
    private final List<Vertx> vertxes = new ArrayList<>();
    private RadiusDirectorIT.Responder aaa;
    private DaeTestBed.NasStandIn nas;

    @AfterEach
    void stop() throws Exception {
        for (Director d : directors) {
            d.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        for (Vertx v : vertxes) {
            v.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        cluster.close();
        if (nas != null) {
            nas.close();
        }
        if (aaa != null) {
            aaa.close();
        }
    }

    private Director node(ClusterMember member, String vip) throws Exception {
        Director director = DaeTestBed.node(vip, aaa, "127.0.24.0", DaeOptions.DEFAULT_DAE_PORT, member.stickyTables(),
                member.slot(), member.sharedTables());
        Vertx vertx = Vertx.vertx();
        vertxes.add(vertx);
        directors.add(director);
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return director;
    }

    @Test
    void aSessionLearntThroughNodeAIsReachedByACoaSentToNodeB() throws Exception {
        aaa = new RadiusDirectorIT.Responder("127.0.24.5", AAA_SECRET);
        nas = new DaeTestBed.NasStandIn("127.0.24.7", DaeOptions.DEFAULT_DAE_PORT);
        ClusterMember memberA = cluster.start();
        ClusterMember memberB = cluster.start();
        await().atMost(WAIT).until(() -> memberB.members().size() == 2);
        Director a = node(memberA, "127.0.24.10");
        Director b = node(memberB, "127.0.24.11");

        FreeRadiusProcess.Result start = radclient(work, "127.0.24.7", a.localAddress("radius-acct"), "acct", NAS_SECRET,
                accounting("Start", "cluster-session-1", "dave", "10.24.0.7", "491700000024"));
        assertThat(start.output()).contains("Received Accounting-Response");
        // Shared-table writes are asynchronous: B's copy has the session once A's write is applied.
        DaeSessions sessionsB = DaeTestBed.plugin(b).sessions();
        await().atMost(WAIT).until(() -> sessionsB.entries() == 4); // one per indexed attribute

        FreeRadiusProcess.Result coa = radclient(work, "127.0.24.5", b.localAddress("dae"), "coa", AAA_SECRET,
                "Calling-Station-Id = \"491700000024\"\nFilter-Id = \"silver\"");
        assertThat(coa.output()).contains("Received CoA-ACK");
        assertThat(nas.received).hasSize(1);
        assertThat(nas.received.get(0).verified()).isTrue();
        assertThat(nas.received.get(0).from()).as("from node B's DAE listener").isEqualTo(b.localAddress("dae"));
        assertThat(DaeTestBed.plugin(b).count("relayed", RadiusCode.COA_REQUEST)).isEqualTo(1);
        assertThat(DaeTestBed.plugin(a).count("relayed", RadiusCode.COA_REQUEST)).isZero();
    }
}
