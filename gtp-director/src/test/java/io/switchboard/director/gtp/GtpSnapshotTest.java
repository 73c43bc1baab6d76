package io.switchboard.director.gtp;

import static io.switchboard.director.gtp.GtpInspectNode.GGSN_1;
import static io.switchboard.director.gtp.GtpInspectNode.GGSN_2;
import static io.switchboard.director.gtp.GtpInspectNode.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.NodeSlot;
import io.switchboard.director.persist.Snapshot;
import io.switchboard.director.persist.SnapshotTables;
import io.switchboard.director.sticky.StickyBinding;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gtp-inspect} sessions across a lone node's restart: written to a snapshot through their
 * codec, read back by a new plug-in, counted per real again, and their TEIDs never handed out twice.
 */
class GtpSnapshotTest {

    @TempDir
    Path dir;

    @Test
    void sessionsComeBackCountedAndTheirTeidsAreNotHandedOutAgain() throws Exception {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        SnapshotTables before = new SnapshotTables(Snapshot.empty(), clock::get, System.currentTimeMillis());
        GtpInspectNode first = new GtpInspectNode(before, NodeSlot.SINGLE, clock);
        Set<Long> teids = new HashSet<>();
        GtpInspectNode.Created alice = first.create("262420000009001", 1, first.real(GGSN_1), 0x1111);
        teids.add(alice.directorTeid());
        teids.add(first.create("262420000009002", 2, first.real(GGSN_2), 0x2222).directorTeid());
        teids.add(first.create("262420000009003", 3, first.real(GGSN_1), 0x3333).directorTeid());
        Path file = dir.resolve("state.snapshot");
        before.snapshot(System.currentTimeMillis()).write(file);

        AtomicLong restartedClock = new AtomicLong(5_000_000_000L);
        SnapshotTables after = new SnapshotTables(Snapshot.read(file), restartedClock::get, System.currentTimeMillis());
        GtpInspectNode restarted = new GtpInspectNode(after, NodeSlot.SINGLE, restartedClock);

        assertThat(restarted.plugin.sessionTable().keySet()).isEqualTo(teids);
        assertThat(restarted.plugin.openSessions(restarted.real(GGSN_1))).isEqualTo(2);
        assertThat(restarted.real(GGSN_2).connections()).isEqualTo(1);
        for (int i = 0; i < 5; i++) {
            GtpInspectNode.Created fresh = restarted.create("26242000000910" + i, 10 + i, restarted.real(GGSN_2),
                    0x4000 + i);
            assertThat(teids.add(fresh.directorTeid())).as("a TEID of a restored session is not handed out").isTrue();
        }
        // A Delete of a session created before the restart reaches its real under the real's TEID.
        byte[] delete = GtpMessages.v1(20, alice.directorTeid(), 0x0200, new byte[] {20, 5});
        StickyBinding route = with(delete, buf -> restarted.plugin.route(buf));
        assertThat(route).isEqualTo(new StickyBinding("ggsn", restarted.real(GGSN_1).id()));
    }
}
