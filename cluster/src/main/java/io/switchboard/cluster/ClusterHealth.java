package io.switchboard.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.switchboard.director.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's health as metrics: whether it is safe, and how far behind each peer's writes arrive here.
 * <ul>
 *   <li>{@code switchboard_cluster_safe}: 1 when every partition has its backup ({@link ClusterMember#safe}),
 *       sampled every {@link #SAFE_EVERY} on a thread of this class (the check can block for up to a
 *       minute while a dead member is still listed) and published as the last value: the scrape never
 *       waits for it.</li>
 *   <li>Heartbeats: every {@link #HEARTBEAT_EVERY} each member writes {@code address → "uuid sequence
 *       sent-millis"} to an ordinary map, {@value #MAP}, and every other member's entry listener hears
 *       it. That is the way a sticky binding reaches the other replicas (a write to the key's owner, the
 *       owner's event to every listener: {@link ReplicaUpdater}), so the lag measured is the lag of the
 *       replicas the packet path reads. Per peer: the last lag ({@code switchboard_cluster_replication_lag_seconds}),
 *       their distribution ({@code switchboard_cluster_heartbeat_lag_seconds}, a histogram), the time since
 *       the last heartbeat arrived ({@code switchboard_cluster_heartbeat_age_seconds}, on this node's
 *       monotonic clock: it grows when replication from that peer stalls), and heartbeats lost
 *       ({@code switchboard_cluster_heartbeats_missed_total}).</li>
 * </ul>
 * The lag compares two hosts' wall clocks, so it is off by their offset (docs/cluster.md). A round trip
 * (echoing each heartbeat back) would need no clock but measures two paths and halves the sum, and
 * doubles the events; with NTP on the members the offset is well below what the alert looks for.
 * Meters of a peer go when it leaves the cluster. Nothing here runs on an event loop.
 */
public final class ClusterHealth implements AutoCloseable {

    static final String MAP = "cluster-heartbeats";
    static final Duration HEARTBEAT_EVERY = Duration.ofSeconds(1);
    static final Duration SAFE_EVERY = Duration.ofSeconds(5);
    /** How long a sample of safety waits for Hazelcast's answer; no answer in time is "not safe". */
    private static final Duration SAFE_WITHIN = Duration.ofSeconds(4);
    /** Histogram buckets of the heartbeat lag: a LAN's millisecond to a stall's seconds. */
    private static final Duration[] LAG_BUCKETS = {Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10),
        Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5),
        Duration.ofSeconds(10)};

    private static final Logger LOG = LoggerFactory.getLogger(ClusterHealth.class);

    private final ClusterMember member;
    private final MeterRegistry registry;
    private final IMap<String, String> heartbeats;
    private final String self;
    private final String incarnation;
    private final ReplicationLag lag = new ReplicationLag();
    private final Ticker ticker;
    private final LongSupplier wallMillis;
    private final ScheduledExecutorService scheduler;
    private final Gauge safeGauge;
    /** The last sample of safety: 1, 0, or NaN before the first. */
    private volatile double safe = Double.NaN;
    private long sequence;
    /** Each peer's meters, to remove when it leaves. */
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();
    private final Map<String, Timer> lagTimers = new ConcurrentHashMap<>();
    private final UUID entryListener;
    private final UUID membershipListener;

    private ClusterHealth(ClusterMember member, MeterRegistry registry, Ticker ticker, LongSupplier wallMillis) {
        this.member = member;
        this.registry = registry;
        this.ticker = ticker;
        this.wallMillis = wallMillis;
        this.heartbeats = member.hazelcast().getMap(MAP);
        this.self = label(member.hazelcast().getCluster().getLocalMember());
        this.incarnation = member.hazelcast().getCluster().getLocalMember().getUuid().toString();
        this.safeGauge = Gauge.builder("switchboard.cluster.safe", this, h -> h.safe)
                .description("1 when every partition of the shared maps has its backup (sampled every "
                        + SAFE_EVERY.toSeconds() + " s)")
                .register(registry);
        this.entryListener = heartbeats.addEntryListener(new Listener(), true);
        this.membershipListener = member.hazelcast().getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                left(label(event.getMember()));
            }
        });
        this.scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "cluster-health");
            t.setDaemon(true);
            return t;
        });
        scheduler.scheduleAtFixedRate(this::beat, 0, HEARTBEAT_EVERY.toMillis(), TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::sampleSafe, 0, SAFE_EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts the heartbeats and the safety samples of {@code member}, with meters in {@code registry}. */
    public static ClusterHealth start(ClusterMember member, MeterRegistry registry) {
        return new ClusterHealth(member, registry, Ticker.SYSTEM, System::currentTimeMillis);
    }

    private static String label(Member m) {
        return m.getAddress().getHost() + ":" + m.getAddress().getPort();
    }

    /** Writes this member's next heartbeat, without waiting for the owner's answer. */
    private void beat() {
        try {
            sequence++;
            heartbeats.setAsync(self, incarnation + " " + sequence + " " + wallMillis.getAsLong());
        } catch (RuntimeException e) {
            // The member is shutting down; the scheduler is being stopped too.
            LOG.debug("heartbeat not written: {}", e.toString());
        }
    }

    private void sampleSafe() {
        try {
            safe = member.safe(SAFE_WITHIN) ? 1 : 0;
        } catch (RuntimeException e) {
            safe = 0;
        }
    }

    private final class Listener implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String> {
        @Override
        public void entryAdded(EntryEvent<String, String> event) {
            heard(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> event) {
            heard(event.getKey(), event.getValue());
        }
    }

    /** A peer's heartbeat arrived (a Hazelcast event thread). */
    void heard(String peer, String value) {
        if (peer.equals(self) || value == null) {
            return;
        }
        String[] parts = value.split(" ");
        if (parts.length != 3) {
            return; // not a heartbeat this build writes (another version's): not measured
        }
        long sequence;
        long sent;
        try {
            sequence = Long.parseLong(parts[1]);
            sent = Long.parseLong(parts[2]);
        } catch (NumberFormatException e) {
            return; // not a heartbeat this build writes (another version's): not measured
        }
        boolean fresh = !lag.knows(peer);
        long observed = lag.heard(peer, parts[0], sequence, sent, wallMillis.getAsLong(), ticker.nanos());
        if (fresh) {
            register(peer);
        }
        Timer timer = lagTimers.get(peer);
        if (timer != null) {
            timer.record(observed, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void register(String peer) {
        if (meters.containsKey(peer) || member.hazelcast().getCluster().getMembers().stream()
                .noneMatch(m -> label(m).equals(peer))) {
            return; // a late heartbeat of a peer that left: no meters for a member no longer listed
        }
        Tags tags = Tags.of("peer", peer);
        Timer timer = Timer.builder("switchboard.cluster.heartbeat.lag").tags(tags)
                .description("Lag of each peer's heartbeats through the cluster's maps (arrival here minus"
                        + " sending there, wall clocks)")
                .serviceLevelObjectives(LAG_BUCKETS).register(registry);
        lagTimers.put(peer, timer);
        meters.put(peer, List.of(timer,
                Gauge.builder("switchboard.cluster.replication.lag", lag, l -> l.lagSeconds(peer)).tags(tags)
                        .baseUnit("seconds")
                        .description("Lag of the last heartbeat of each peer through the cluster's maps")
                        .register(registry),
                Gauge.builder("switchboard.cluster.heartbeat.age", lag, l -> l.ageSeconds(peer, ticker.nanos()))
                        .tags(tags).baseUnit("seconds")
                        .description("Time since the last heartbeat of each peer arrived (grows while"
                                + " replication from it stalls)")
                        .register(registry),
                FunctionCounter.builder("switchboard.cluster.heartbeats.missed", lag, l -> l.missed(peer))
                        .tags(tags).description("Heartbeats of each peer that never arrived here")
                        .register(registry)));
    }

    /** A peer left the cluster: its meters go, and its heartbeat entry (any member may remove it). */
    private synchronized void left(String peer) {
        lag.forget(peer);
        lagTimers.remove(peer);
        List<Meter> gone = meters.remove(peer);
        if (gone != null) {
            gone.forEach(registry::remove);
        }
        try {
            heartbeats.removeAsync(peer);
        } catch (RuntimeException e) {
            LOG.debug("heartbeat of {} not removed: {}", peer, e.toString());
        }
    }

    /** The peers heard from, by address. */
    public java.util.Set<String> peers() {
        return lag.peers();
    }

    /** Stops the heartbeats and the samples, and removes every meter of this class. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        if (member.hazelcast().getLifecycleService().isRunning()) {
            heartbeats.removeEntryListener(entryListener);
            member.hazelcast().getCluster().removeMembershipListener(membershipListener);
        }
        synchronized (this) {
            meters.values().forEach(list -> list.forEach(registry::remove));
            meters.clear();
            lagTimers.clear();
        }
        registry.remove(safeGauge);
    }
}
