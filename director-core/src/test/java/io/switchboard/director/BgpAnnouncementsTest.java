package io.switchboard.director;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.switchboard.director.routing.BgpSpeaker;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the node hands its speaker: a new set at once, the same set not again until the resync, a
 * failed push again after the retry interval, each counted; and the withdrawal standing by after the
 * first push, fired (its command run) when the drain starts. The speaker here records its calls; the
 * withdrawal command is a real process that writes a file.
 */
class BgpAnnouncementsTest {

    @TempDir
    Path dir;

    private final Vertx vertx = Vertx.vertx();
    private final AtomicLong now = new AtomicLong();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private final class Recording implements BgpSpeaker {
        final List<Set<InetAddress>> pushes = new CopyOnWriteArrayList<>();
        final AtomicBoolean failing = new AtomicBoolean();

        @Override
        public void announce(Set<InetAddress> addresses) throws IOException {
            pushes.add(addresses);
            if (failing.get()) {
                throw new IOException("daemon not running");
            }
        }

        @Override
        public List<String> withdrawAll() {
            return List.of("touch", dir.resolve("withdrawn").toString());
        }

        @Override
        public String name() {
            return "test";
        }
    }

    private double count(String outcome) {
        return registry.get("switchboard.route.health.bgp.updates").tag("outcome", outcome).counter().count();
    }

    @Test
    void pushesChangesRetriesFailuresAndWithdrawsWhenTheDrainStarts() throws Exception {
        Recording speaker = new Recording();
        BgpAnnouncements bgp = new BgpAnnouncements(speaker, now::get, registry);
        Set<InetAddress> one = Set.of(InetAddress.getByName("10.99.0.1"));

        speaker.failing.set(true);
        bgp.sync(vertx, one);
        await().until(() -> count("failed") == 1);
        bgp.sync(vertx, one); // within RETRY of the failure: not pushed
        now.addAndGet(BgpAnnouncements.RETRY.toNanos());
        speaker.failing.set(false);
        bgp.sync(vertx, one);
        await().until(() -> count("ok") == 1);
        assertThat(speaker.pushes).containsExactly(one, one);

        bgp.sync(vertx, one); // the daemon has it
        bgp.sync(vertx, Set.of());
        await().until(() -> count("ok") == 2);
        assertThat(speaker.pushes).containsExactly(one, one, Set.of());
        now.addAndGet(BgpAnnouncements.RESYNC.toNanos());
        bgp.sync(vertx, Set.of()); // unchanged, but RESYNC later: again
        await().until(() -> count("ok") == 3);

        assertThat(dir.resolve("withdrawn")).doesNotExist();
        bgp.withdrawNow();
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(dir.resolve("withdrawn")));
    }
}
