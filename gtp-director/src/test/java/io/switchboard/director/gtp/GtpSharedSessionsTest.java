package io.switchboard.director.gtp;

import static io.switchboard.director.gtp.GtpInspectNode.GGSN_1;
import static io.switchboard.director.gtp.GtpInspectNode.GGSN_2;
import static io.switchboard.director.gtp.GtpInspectNode.IDLE;
import static io.switchboard.director.gtp.GtpInspectNode.SGSN;
import static io.switchboard.director.gtp.GtpInspectNode.with;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.codec.gtp.GtpMessageView;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.StickyBinding;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two nodes' {@code gtp-inspect} plug-ins over one set of shared session tables (slots 0 and 1 of
 * 64; the tables are the in-JVM {@link EncodedTables}, each node reading through its own codec): a
 * session created through node A is served by node B in both directions, ends everywhere, expires
 * cluster-wide, and the identifiers the two nodes allocate never collide.
 */
class GtpSharedSessionsTest {

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private GtpInspectNode a;
    private GtpInspectNode b;

    private EncodedTables tables;

    @BeforeEach
    void nodes() throws Exception {
        tables = new EncodedTables();
        a = new GtpInspectNode(tables.node(), new NodeSlot(0, 64), clock);
        b = new GtpInspectNode(tables.node(), new NodeSlot(1, 64), clock);
    }

    private static long sgsnTeid(String imsi) throws Exception {
        byte[] request = GtpMessages.v1CreateRequest(imsi, 0x0100, 5, SGSN.getAddress().getAddress());
        return with(request, buf -> new GtpMessageView().wrap(buf).senderControlPlane().teid());
    }

    @Test
    void aDeleteOfASessionCreatedThroughNodeAGoesFromNodeBToItsRealUnderTheRealsTeid() throws Exception {
        GtpInspectNode.Created created = a.create("262420000007001", 1, a.real(GGSN_2), 0x7777);
        RealServer ggsn2AtB = b.real(GGSN_2);
        byte[] delete = GtpMessages.v1(20, created.directorTeid(), 0x0200, new byte[] {20, 5});
        StickyBinding route = with(delete.clone(), buf -> b.plugin.route(buf));
        assertThat(route).isEqualTo(new StickyBinding("ggsn", ggsn2AtB.id()));
        GtpRequestContext context = with(delete, buf -> {
            var c = b.plugin.prepareRequest(buf, 77, ggsn2AtB, null);
            assertThat(new GtpMessageView().wrap(buf).teid()).as("the real's own TEID").isEqualTo(0x7777);
            return c;
        });
        // The GGSN answers node B under the TEID it knows the SGSN by; the SGSN gets its own back.
        byte[] answer = GtpMessages.v1(21, created.realFacingTeid(), 77, new byte[] {1, (byte) 128});
        long toSgsn = with(answer, buf -> {
            b.plugin.inspectResponse(buf, ggsn2AtB, context);
            return new GtpMessageView().wrap(buf).teid();
        });
        assertThat(toSgsn).isEqualTo(sgsnTeid("262420000007001"));
        assertThat(b.plugin.sessionTable()).isEmpty();
        assertThat(a.plugin.sessionTable()).as("ended on every node").isEmpty();
        a.plugin.housekeep(clock.get());
        assertThat(a.plugin.openSessions(a.real(GGSN_2))).isZero();
        assertThat(a.real(GGSN_2).connections()).isZero();
    }

    @Test
    void aRealsRequestReachingNodeBIsRelayedToTheRequesterAndItsAnswerBack() throws Exception {
        String imsi = "262420000007002";
        GtpInspectNode.Created created = a.create(imsi, 2, a.real(GGSN_2), 0x7777);
        byte[] update = GtpMessages.v1(18, created.realFacingTeid(), 0x7001, new byte[] {20, 5});
        InetSocketAddress fromOtherReal = with(update.clone(), buf -> b.relay(buf, GGSN_1));
        assertThat(fromOtherReal).as("the TEID is GGSN 2's session's, not GGSN 1's").isNull();
        int[] sequence = new int[1];
        InetSocketAddress to = with(update, buf -> {
            InetSocketAddress target = b.relay(buf, GGSN_2);
            GtpMessageView view = new GtpMessageView().wrap(buf);
            assertThat(view.teid()).isEqualTo(sgsnTeid(imsi));
            sequence[0] = view.sequence();
            return target;
        });
        assertThat(to).isEqualTo(SGSN);
        assertThat(sequence[0] >>> 10).as("node B's slot in the top 6 of 16 bits").isEqualTo(1);
        byte[] answer = GtpMessages.v1(19, created.directorTeid(), sequence[0], new byte[] {1, (byte) 128});
        with(answer, buf -> {
            assertThat(b.relay(buf, SGSN)).isEqualTo(GGSN_2);
            GtpMessageView view = new GtpMessageView().wrap(buf);
            assertThat(view.teid()).isEqualTo(0x7777);
            assertThat(view.sequence()).isEqualTo(0x7001);
            return null;
        });
        // Node A relays in its own sequence space: slot 0 in the top bits.
        byte[] again = GtpMessages.v1(18, created.realFacingTeid(), 0x7002, new byte[] {20, 5});
        int fromA = with(again, buf -> {
            a.relay(buf, GGSN_2);
            return new GtpMessageView().wrap(buf).sequence();
        });
        assertThat(fromA >>> 10).isZero();
    }

    @Test
    void theRequestersAnswerToARequestNodeBRelayedMayReachNodeA() throws Exception {
        String imsi = "262420000007007";
        GtpInspectNode.Created created = a.create(imsi, 7, a.real(GGSN_2), 0x7777);
        byte[] delete = GtpMessages.v1(20, created.realFacingTeid(), 0x7010, new byte[] {20, 5});
        int sequence = with(delete, buf -> {
            assertThat(b.relay(buf, GGSN_2)).isEqualTo(SGSN);
            return new GtpMessageView().wrap(buf).sequence();
        });
        byte[] answer = GtpMessages.v1(21, created.directorTeid(), sequence, new byte[] {1, (byte) 128});
        with(answer, buf -> {
            assertThat(a.relay(buf, SGSN)).as("node A completes B's request").isEqualTo(GGSN_2);
            GtpMessageView view = new GtpMessageView().wrap(buf);
            assertThat(view.teid()).isEqualTo(0x7777);
            assertThat(view.sequence()).isEqualTo(0x7010);
            return null;
        });
        assertThat(a.plugin.sessionTable()).as("the accepted Delete ended the session").isEmpty();
        // The same answer again (the SGSN's duplicate) matches nothing on either node any more.
        byte[] duplicate = GtpMessages.v1(21, created.directorTeid(), sequence, new byte[] {1, (byte) 128});
        InetSocketAddress again = with(duplicate, buf -> a.relay(buf, SGSN));
        assertThat(again).isNull();
        // Node B forgets its request after the response timeout, without counting it as unanswered.
        clock.addAndGet(Duration.ofSeconds(6).toNanos());
        b.housekeep();
        assertThat(b.counter("switchboard.real.requests.expired")).isZero();
    }

    @Test
    void teidsAllocatedOnTwoNodesNeverCollideAndEveryNodeCountsEverySession() throws Exception {
        Set<Long> teids = new HashSet<>();
        int perNode = 300;
        for (int i = 0; i < perNode; i++) {
            for (GtpInspectNode node : new GtpInspectNode[] {a, b}) {
                InetSocketAddress ggsn = i % 2 == 0 ? GGSN_1 : GGSN_2;
                GtpInspectNode.Created c = node.create(String.format("2624200001%05d", i), 1000 + i, node.real(ggsn),
                        0x10000 + i);
                assertThat(teids.add(c.directorTeid())).isTrue();
                assertThat(teids.add(c.realFacingTeid())).isTrue();
                assertThat(c.directorTeid() >>> 26).as("the node's slot in the top 6 bits")
                        .isEqualTo(node == a ? 0 : 1);
                assertThat(c.realFacingTeid()).isEqualTo(c.directorTeid() ^ 1);
            }
        }
        assertThat(teids).hasSize(4 * perNode);
        for (GtpInspectNode node : new GtpInspectNode[] {a, b}) {
            node.plugin.housekeep(clock.get());
            assertThat(node.plugin.sessionTable()).hasSize(2 * perNode);
            // Least connections on either node sees the cluster's sessions per real.
            assertThat(node.plugin.openSessions(node.real(GGSN_1))).isEqualTo(perNode);
            assertThat(node.real(GGSN_2).connections()).isEqualTo(perNode);
        }
    }

    @Test
    void idleExpiryIsClusterWideAndMessagesOnOneNodeKeepTheSessionAliveOnTheOthers() throws Exception {
        GtpInspectNode.Created created = a.create("262420000007003", 3, a.real(GGSN_1), 0x5555);
        clock.addAndGet(IDLE.minusSeconds(1).toNanos());
        // Node B sees the session used (the GGSN's own Update); the refresh is written for everyone.
        byte[] update = GtpMessages.v1(18, created.realFacingTeid(), 0x7003, new byte[] {20, 5});
        InetSocketAddress relayed = with(update, buf -> b.relay(buf, GGSN_1));
        assertThat(relayed).isEqualTo(SGSN);
        clock.addAndGet(Duration.ofSeconds(4).toNanos());
        a.plugin.housekeep(clock.get());
        assertThat(a.plugin.sessionTable()).as("node A knows it was used through node B").hasSize(1);
        clock.addAndGet(IDLE.toNanos());
        a.plugin.housekeep(clock.get());
        assertThat(a.plugin.sessionTable()).isEmpty();
        assertThat(b.plugin.sessionTable()).isEmpty();
        b.plugin.housekeep(clock.get());
        assertThat(b.real(GGSN_1).connections()).isZero();
    }

    @Test
    void aRestartOfARealSeenByOneNodeEndsItsSessionsOnEveryNode() throws Exception {
        a.create("262420000007004", 4, a.real(GGSN_2), 0x4001);
        a.create("262420000007005", 5, a.real(GGSN_2), 0x4002);
        a.create("262420000007006", 6, a.real(GGSN_1), 0x4003);
        b.plugin.realRestarted(b.real(GGSN_2));
        assertThat(a.plugin.sessionTable().values()).hasSize(1).allMatch(s -> s.real() == a.real(GGSN_1));
        assertThat(a.plugin.openSessions(a.real(GGSN_2))).as("counted by node A until its next sweep").isEqualTo(2);
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        a.plugin.housekeep(clock.get());
        assertThat(a.plugin.openSessions(a.real(GGSN_2))).isZero();
        assertThat(a.real(GGSN_2).connections()).isZero();
        assertThat(a.plugin.openSessions(a.real(GGSN_1))).isEqualTo(1);
    }

    @Test
    void inAClusterTheHousekeepingRunsOnTheSweepersThreadWhichEndsWithTheVirtualServer() throws Exception {
        GtpInspectNode c = new GtpInspectNode(tables.node(), new NodeSlot(2, 64), clock, GtpSweeper.dedicated());
        try {
            a.create("262420000007008", 8, a.real(GGSN_1), 0x5558);
            assertThat(c.plugin.openSessions(c.real(GGSN_1))).as("not counted before c's first recount").isZero();
            clock.addAndGet(IDLE.dividedBy(2).toNanos());
            c.plugin.housekeep(clock.get());
            await().atMost(Duration.ofSeconds(10)).until(() -> c.plugin.openSessions(c.real(GGSN_1)) == 1);
            assertThat(c.real(GGSN_1).connections()).isEqualTo(1);
            clock.addAndGet(IDLE.toNanos());
            // A second's housekeeping due while the previous still runs is skipped: each try is a second on.
            await().atMost(Duration.ofSeconds(10)).until(() -> {
                c.plugin.housekeep(clock.addAndGet(Duration.ofSeconds(1).toNanos()));
                return c.counter("switchboard.gtp.sessions.expired") == 1;
            });
            assertThat(a.plugin.sessionTable()).as("ended on every node").isEmpty();
            assertThat(c.plugin.openSessions(c.real(GGSN_1))).isZero();
        } finally {
            c.plugin.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(c.plugin::sweeperTerminated);
    }
}
