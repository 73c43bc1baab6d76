package io.switchboard.director;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.routing.BgpSpeaker;
import io.switchboard.director.routing.Withdrawal;
import io.vertx.core.Vertx;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the BGP speaker announcing the served virtual addresses: each check hands over the set that
 * should be announced; a new set is pushed (one push at a time, off the event loops), and a push
 * that failed (the daemon not started yet, or restarting) is retried after {@link #RETRY}, so the
 * daemon and the node may start in either order.
 */
final class BgpAnnouncements {

    private static final Logger LOG = LoggerFactory.getLogger(BgpAnnouncements.class);
    static final Duration RETRY = Duration.ofSeconds(1);
    /**
     * The set is pushed again this long after the last push even if unchanged: a daemon restarted
     * since (FRR forgets what vtysh configured unless it was saved) gets it back. Both speakers take
     * an unchanged set as no change.
     */
    static final Duration RESYNC = Duration.ofSeconds(30);

    private final BgpSpeaker speaker;
    private final Ticker ticker;
    private final RateLimitedLog failures;
    private final Map<Boolean, Counter> pushes;
    /** Guarded by this: the set the daemon announces as far as known (null: unknown), and whether a push runs. */
    private Set<InetAddress> pushed;
    private boolean pushing;
    private long retryAt;
    private long resyncAt;
    /** Armed after the first push that succeeded; re-armed if its process went away. */
    private volatile Withdrawal withdrawal;
    /** The last set logged, so that a resync is not logged again. */
    private Set<InetAddress> last;

    BgpAnnouncements(BgpSpeaker speaker, Ticker ticker, MeterRegistry registry) {
        this.speaker = speaker;
        this.ticker = ticker;
        this.failures = new RateLimitedLog(LOG, Duration.ofSeconds(30), ticker);
        this.pushes = Map.of(true, counter(registry, speaker.name(), "ok"), false,
                counter(registry, speaker.name(), "failed"));
    }

    private static Counter counter(MeterRegistry registry, String daemon, String outcome) {
        return Counter.builder("switchboard.route.health.bgp.updates")
                .description("Announced sets handed to the BGP speaker, by outcome")
                .tag("daemon", daemon).tag("outcome", outcome).register(registry);
    }

    /**
     * Pushes {@code wanted} unless a push is running, the daemon took this set less than RESYNC ago,
     * or the last push failed less than RETRY ago.
     */
    void sync(Vertx vertx, Set<InetAddress> wanted) {
        synchronized (this) {
            long now = ticker.nanos();
            if (pushing || (wanted.equals(pushed) && now < resyncAt) || (pushed == null && now < retryAt)) {
                return;
            }
            pushing = true;
            pushed = null;
        }
        Set<InetAddress> set = Set.copyOf(wanted);
        vertx.executeBlocking(() -> {
            boolean ok = false;
            try {
                speaker.announce(set);
                ok = true;
                if (!set.equals(last)) {
                    LOG.info("route-health: {} announces {}", speaker.name(), set);
                    last = set;
                }
                if (withdrawal == null || !withdrawal.armed()) {
                    withdrawal = Withdrawal.arm(speaker.withdrawAll());
                }
            } catch (Exception e) {
                failures.warn("route-health: {} could not be told to announce {}: {}", speaker.name(), set,
                        e.getMessage());
            }
            pushes.get(ok).increment();
            synchronized (this) {
                pushing = false;
                pushed = ok ? set : null;
                retryAt = ok ? 0 : ticker.nanos() + RETRY.toNanos();
                resyncAt = ticker.nanos() + RESYNC.toNanos();
            }
            return null;
        }, true);
    }

    /**
     * The node starts draining (SIGTERM): everything is withdrawn now, by the watcher, not at the next
     * check through a push: a node that shuts down right after its drain would otherwise refuse new
     * work (and then close) while the routers still send it flows, until the watcher fires at exit.
     */
    void withdrawNow() {
        Withdrawal armed = withdrawal;
        if (armed != null) {
            try {
                armed.fire();
            } catch (java.io.IOException e) {
                LOG.warn("route-health: the withdrawal could not be fired: {}", e.toString());
            }
        }
    }
}
