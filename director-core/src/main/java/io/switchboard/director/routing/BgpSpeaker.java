package io.switchboard.director.routing;

import io.switchboard.director.config.BgpConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The node's BGP speaker as Switchboard drives it: told the complete set of virtual addresses to
 * announce, it makes the daemon announce exactly those (each as a /32 or /128) and withdraw the
 * rest. Calls block (they run the daemon's control program) and come one at a time.
 */
public interface BgpSpeaker {

    /** Announces exactly {@code addresses}; throws when the daemon refused or could not be reached. */
    void announce(Set<InetAddress> addresses) throws IOException, InterruptedException;

    /**
     * The command that withdraws every address this node announces, run by the {@link Withdrawal}
     * when the node ends: it must need nothing from the node.
     */
    List<String> withdrawAll();

    /** The daemon's name, for logs and counters. */
    String name();

    static BgpSpeaker of(BgpConfig config, Duration timeout) {
        return config.daemon() == BgpConfig.Daemon.BIRD ? new BirdSpeaker(config, timeout)
                : new FrrSpeaker(config, timeout);
    }
}
