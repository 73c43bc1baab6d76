package io.switchboard.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Vert.x runs clustered on the director's own Hazelcast member: one membership for both. */
class VertxOnClusterMemberTest {

    private final TestMembers members = new TestMembers();
    private final List<Vertx> vertxes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Vertx vertx : vertxes) {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        members.close();
    }

    private Vertx clustered(ClusterMember member) throws Exception {
        VertxOptions options = new VertxOptions();
        options.getEventBusOptions().setHost("127.0.0.1").setPort(0);
        Vertx vertx = Vertx.builder().with(options).withClusterManager(member.vertxClusterManager()).buildClustered()
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertxes.add(vertx);
        return vertx;
    }

    @Test
    void eventBusRequestCrossesToTheOtherMember() throws Exception {
        ClusterMember a = members.start();
        ClusterMember b = members.start();
        Vertx onA = clustered(a);
        Vertx onB = clustered(b);
        onB.eventBus().<String>consumer("switchboard.ping", msg -> msg.reply("pong from B"))
                .completion().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

        Message<String> reply = onA.eventBus().<String>request("switchboard.ping", "ping")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(reply.body()).isEqualTo("pong from B");
        assertThat(a.hazelcast().getCluster().getMembers()).hasSize(2);
    }
}
