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

    private final BgpSpeaker speaker;
    private final Ticker ticker;
    private final RateLimitedLog failures;
    private final Map<Boolean, Counter> pushes;
    /** Guarded by this: the set the daemon announces as far as known (null: unknown), and whether a push runs. */
    private Set<InetAddress> pushed;
    private boolean pushing;
    private long retryAt;
    /** Armed after the first push that succeeded; re-armed if its process went away. */
    private Withdrawal withdrawal;

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

    /** Pushes {@code wanted} unless the daemon has it, a push is running, or the last one failed less than RETRY ago. */
    void sync(Vertx vertx, Set<InetAddress> wanted) {
        synchronized (this) {
            if (pushing || wanted.equals(pushed) || (pushed == null && ticker.nanos() < retryAt)) {
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
                LOG.info("route-health: {} announces {}", speaker.name(), set);
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
            }
            return null;
        }, true);
    }
}
