package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.cluster.ClusterMember;
import io.switchboard.cluster.TestMembers;
import io.switchboard.director.Director;
import io.switchboard.director.Ticker;
import io.switchboard.director.config.AdminConfig;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.SwitchboardConfig;
import io.switchboard.director.config.VirtualServerConfig;
import io.vertx.core.Vertx;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two director nodes (each a {@link Director} on its own Vert.x with its own Hazelcast member, as the
 * launcher wires them when {@code cluster.enabled}: sticky tables, slot and shared tables of the
 * member), in one JVM, in front of two {@link GtpResponder} GGSNs: sessions created through node A
 * are updated and deleted through node B over the network, at the GGSN that holds each, under that
 * GGSN's TEID, also after node A is gone.
 */
class GtpClusterIT {

    private static final Duration WAIT = Duration.ofSeconds(15);
    private final TestMembers cluster = new TestMembers();
    private final List<Director> directors = new ArrayList<>();
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<GtpResponder> ggsns = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Director d : directors) {
            d.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        for (Vertx v : vertxes) {
            v.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        cluster.close();
        for (GtpResponder g : ggsns) {
            g.close();
        }
    }

    /** A node: a member joining the first one still running, and its director on {@code vip}. */
    private Director node(ClusterMember member, String vip) throws Exception {
        Map<String, FarmConfig> farms = new LinkedHashMap<>();
        farms.put("ggsn", GtpTestBed.farm("ggsn", PredictorKind.ROUNDROBIN, Duration.ofMinutes(1), ggsns));
        Map<String, VirtualServerConfig> servers = Map.of("gtp-c", GtpTestBed.server("gtp-c",
                new InetSocketAddress(vip, 0), "gtp-inspect", "ggsn", GtpOptions.DEFAULT));
        Director director = new Director(new SwitchboardConfig(ClusterConfig.SINGLE_NODE, AdminConfig.DEFAULT, farms,
                servers), v -> new GtpInspectService(), new SimpleMeterRegistry(), Ticker.SYSTEM, member.stickyTables(),
                member.slot(), member.sharedTables());
        Vertx vertx = Vertx.vertx();
        vertxes.add(vertx);
        directors.add(director);
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return director;
    }


    private static byte[] exchange(DatagramSocket from, byte[] request, InetSocketAddress to) throws Exception {
        from.send(new DatagramPacket(request, request.length, to));
        DatagramPacket in = new DatagramPacket(new byte[4096], 4096);
        try {
            from.receive(in);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer from " + to, e);
        }
        return Arrays.copyOf(in.getData(), in.getLength());
    }


    private static int cause(byte[] v1Answer) {
        return v1Answer[13] & 0xff; // after the 12-byte header with sequence: IE 1 (Cause), its value
    }

    private GtpResponder holder(String imsi) {
        return ggsns.stream().filter(g -> g.imsis().contains(imsi)).findFirst().orElseThrow();
    }

    private static long teidOf(List<GtpResponder.Received> received, int type) {
        return received.stream().filter(r -> r.type() == type).reduce((x, y) -> y).orElseThrow().teid();
    }

    @Test
    void sessionsCreatedThroughNodeAAreUpdatedAndDeletedThroughNodeBAlsoAfterNodeAIsGone() throws Exception {
        ggsns.add(new GtpResponder(io.switchboard.codec.gtp.v0.GtpV0TidOrder.GSM_09_60, "127.0.7.31"));
        ggsns.add(new GtpResponder(io.switchboard.codec.gtp.v0.GtpV0TidOrder.GSM_09_60, "127.0.7.32"));
        ClusterMember memberA = cluster.start();
        ClusterMember memberB = cluster.start();
        await().atMost(WAIT).until(() -> memberB.members().size() == 2);
        Director a = node(memberA, "127.0.7.10");
        Director b = node(memberB, "127.0.7.11");
        GtpInspectPlugin pluginB = (GtpInspectPlugin) b.virtualServers().get("gtp-c").plugin();

        try (DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.7.20", 0))) {
            sgsn.setSoTimeout(3000);
            String[] imsis = {"262420000009101", "262420000009102"};
            long[] director = new long[2];
            for (int i = 0; i < 2; i++) {
                byte[] created = exchange(sgsn, GtpMessages.v1CreateRequest(imsis[i], 0x0100 + i, 5,
                        new byte[] {127, 0, 7, 20}), a.localAddress("gtp-c"));
                assertThat(cause(created)).isEqualTo(128);
                director[i] = GtpMessages.senderTeid(created);
                assertThat(director[i] >>> 26).as("node A's slot").isEqualTo(memberA.slot().index());
            }
            assertThat(holder(imsis[0])).as("round robin: one session per GGSN").isNotSameAs(holder(imsis[1]));
            await().atMost(WAIT).until(() -> pluginB.sessionTable().keySet().containsAll(List.of(director[0], director[1])));

            // An Update through node B while A lives: at the session's GGSN, under that GGSN's TEID.
            GtpResponder first = holder(imsis[0]);
            byte[] updated = exchange(sgsn, GtpMessages.v1UpdateRequest(director[0], 0x0200), b.localAddress("gtp-c"));
            assertThat(updated[1] & 0xff).isEqualTo(19);
            assertThat(cause(updated)).isEqualTo(128);
            assertThat(teidOf(first.received, 18)).isEqualTo(first.teid());
            assertThat(GtpMessages.senderTeid(updated)).as("the director's TEID again").isEqualTo(director[0]);

            // Node A goes away (its member terminated, its sockets closed); node B still serves the sessions.
            a.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            directors.remove(a);
            // Every partition has its backup in place (the cluster is young): then one member may go.
            await().atMost(WAIT).until(() -> memberA.hazelcast().getPartitionService().isClusterSafe());
            memberA.hazelcast().getLifecycleService().terminate();
            await().atMost(WAIT).until(() -> memberB.members().size() == 1);

            GtpResponder second = holder(imsis[1]);
            byte[] deleted = exchange(sgsn, GtpMessages.v1(20, director[1], 0x0300, new byte[] {20, 5}),
                    b.localAddress("gtp-c"));
            assertThat(deleted[1] & 0xff).isEqualTo(21);
            assertThat(cause(deleted)).isEqualTo(128);
            assertThat(teidOf(second.received, 20)).isEqualTo(second.teid());
            // Shared-table writes are asynchronous: B's local copy drops the session once its removal is applied.
            await().atMost(WAIT).until(() -> !pluginB.sessionTable().containsKey(director[1]));

            // The first session, updated through B (its GGSN's TEID is now teid() + 1), is deleted there too.
            deleted = exchange(sgsn, GtpMessages.v1(20, director[0], 0x0301, new byte[] {20, 5}), b.localAddress("gtp-c"));
            assertThat(cause(deleted)).isEqualTo(128);
            assertThat(teidOf(first.received, 20)).isEqualTo(first.teid() + 1);
            await().atMost(WAIT).until(() -> pluginB.sessionTable().isEmpty());
            assertThat(ByteBuffer.wrap(deleted).getShort(8) & 0xffff).as("the SGSN's sequence back").isEqualTo(0x0301);
        }
    }
}
