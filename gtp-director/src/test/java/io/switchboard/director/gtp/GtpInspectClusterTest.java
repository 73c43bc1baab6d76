package io.switchboard.director.gtp;

import static io.switchboard.director.gtp.GtpInspectNode.GGSN_1;
import static io.switchboard.director.gtp.GtpInspectNode.GGSN_2;
import static io.switchboard.director.gtp.GtpInspectNode.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.TestMembers;
import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gtp-inspect} sessions over the cluster's Hazelcast shared tables: two members in one JVM (on
 * 127.0.0.1, where Hazelcast finds an interface, with ephemeral ports and a cluster name of their
 * own), each with its own plug-in,
 * farms and slot. Sessions created through node A are found on node B, which forwards their Delete
 * to the right real under the real's TEID, also after node A was terminated; TEIDs allocated on both
 * nodes never collide; a node joining later catches up with the sessions B still holds.
 */
class GtpInspectClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private final TestMembers cluster = new TestMembers();

    @AfterEach
    void stop() {
        cluster.close();
    }


    /** Two members that see each other. */
    private ClusterMember[] twoMembers() {
        ClusterMember a = cluster.start();
        ClusterMember b = cluster.start();
        await().atMost(WAIT).until(() -> a.members().size() == 2 && b.members().size() == 2);
        return new ClusterMember[] {a, b};
    }

    /** Node B forwards the Delete of a session: to the session's real, under the real's TEID. */
    private static void assertDeleteForwardedByB(GtpInspectNode b, GtpInspectNode.Created session, RealServer real,
            long realTeid) throws Exception {
        byte[] delete = GtpMessages.v1(20, session.directorTeid(), 0x0300, new byte[] {20, 5});
        StickyBinding route = with(delete.clone(), buf -> b.plugin.route(buf));
        assertThat(route).isEqualTo(new StickyBinding("ggsn", real.id()));
        GtpRequestContext context = with(delete, buf -> {
            var c = b.plugin.prepareRequest(buf, 300, real, null);
            assertThat(new GtpMessageView().wrap(buf).teid()).isEqualTo(realTeid);
            return c;
        });
        byte[] answer = GtpMessages.v1(21, session.realFacingTeid(), 300, new byte[] {1, (byte) 128});
        with(answer, buf -> b.plugin.inspectResponse(buf, real, context));
    }

    @Test
    void aCreateThroughNodeBReplacesTheSessionNodeALearntForTheSameBearerOnceBHasRecounted() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        ClusterMember[] members = twoMembers();
        GtpInspectNode a = new GtpInspectNode(members[0].sharedTables(), members[0].slot(), clock);
        GtpInspectNode b = new GtpInspectNode(members[1].sharedTables(), members[1].slot(), clock);

        GtpInspectNode.Created old = a.create("262420000009011", 11, a.real(GGSN_1), 0x7781);
        await().atMost(WAIT).until(() -> b.plugin.sessionTable().containsKey(old.directorTeid()));
        b.plugin.housekeep(clock.get()); // B's once-a-second recount: A's session is B's to replace now
        // The same IMSI and NSAPI again, through B (TS 29.060 §7.3.1): a new activation replacing the old.
        GtpInspectNode.Created replacement = b.create("262420000009011", 12, b.real(GGSN_1), 0x7782);
        await().atMost(WAIT).until(() -> a.plugin.sessionTable().keySet()
                .equals(java.util.Set.of(replacement.directorTeid())));
        assertThat(b.plugin.sessionTable()).containsOnlyKeys(replacement.directorTeid());
        assertThat(b.registry.get("switchboard.gtp.sessions.replaced").counter().count()).isEqualTo(1);
    }

    @Test
    void sessionsOfNodeAAreServedByNodeBAlsoAfterNodeAIsGone() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        ClusterMember[] members = twoMembers();
        ClusterMember memberA = members[0];
        ClusterMember memberB = members[1];
        assertThat(memberA.slot().index()).isNotEqualTo(memberB.slot().index());
        GtpInspectNode a = new GtpInspectNode(memberA.sharedTables(), memberA.slot(), clock);
        GtpInspectNode b = new GtpInspectNode(memberB.sharedTables(), memberB.slot(), clock);

        GtpInspectNode.Created first = a.create("262420000009001", 1, a.real(GGSN_2), 0x7771);
        GtpInspectNode.Created second = a.create("262420000009002", 2, a.real(GGSN_1), 0x7772);
        GtpInspectNode.Created third = a.create("262420000009003", 3, a.real(GGSN_2), 0x7773);
        await().atMost(WAIT).until(() -> b.plugin.sessionTable().size() == 3);

        assertDeleteForwardedByB(b, first, b.real(GGSN_2), 0x7771);
        await().atMost(WAIT).until(() -> a.plugin.sessionTable().size() == 2);

        // Every partition has its backup in place (the cluster is young): then one member may go.
        await().atMost(WAIT).until(() -> memberA.hazelcast().getPartitionService().isClusterSafe());
        memberA.hazelcast().getLifecycleService().terminate();
        await().atMost(WAIT).until(() -> memberB.members().size() == 1);
        assertThat(b.plugin.sessionTable()).hasSize(2);
        assertDeleteForwardedByB(b, second, b.real(GGSN_1), 0x7772);
        assertThat(b.plugin.sessionTable()).containsOnlyKeys(third.directorTeid());
        b.plugin.housekeep(clock.get());
        assertThat(b.plugin.openSessions(b.real(GGSN_2))).as("node A's session, counted by B").isEqualTo(1);

        GtpInspectNode.Created ownOfB = b.create("262420000009004", 4, b.real(GGSN_1), 0x7774);
        List<Long> teids = List.of(first.directorTeid(), first.realFacingTeid(), second.directorTeid(),
                second.realFacingTeid(), third.directorTeid(), third.realFacingTeid(), ownOfB.directorTeid(),
                ownOfB.realFacingTeid());
        assertThat(teids).doesNotHaveDuplicates();
        assertThat(ownOfB.directorTeid() >>> 26).isEqualTo(memberB.slot().index());
        assertThat(first.directorTeid() >>> 26).isEqualTo(memberA.slot().index());

        // What B wrote after A was gone is in the cluster: a node joining now catches up with it.
        ClusterMember memberC = cluster.start();
        GtpInspectNode c = new GtpInspectNode(memberC.sharedTables(), memberC.slot(), clock);
        await().atMost(WAIT).until(() -> c.plugin.sessionTable().keySet()
                .equals(java.util.Set.of(third.directorTeid(), ownOfB.directorTeid())));
        assertThat(memberC.slot().index()).isNotEqualTo(memberB.slot().index());
    }
}
