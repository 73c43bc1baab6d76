package io.switchboard.director.ha;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.RealView;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Mobile IP counters of one virtual server, per home agent: Registration Requests sent to it
 * (retransmissions included) and Registration Replies relayed from it, by reply code. Shared by the
 * virtual server's event loops; counters are resolved once per (real, code) and then only
 * incremented. {@link #METRICS} are the module's ({@link HaModule#metrics()}).
 */
final class HaCounters {

    static final MetricSpec REQUESTS = new MetricSpec("switchboard.ipmobile.requests", MetricSpec.Type.COUNTER,
            "Registration Requests sent to a home agent, retransmissions included", List.of("real"));
    static final MetricSpec REPLIES = new MetricSpec("switchboard.ipmobile.replies", MetricSpec.Type.COUNTER,
            "Registration Replies from a home agent relayed to the requester, by code", List.of("real", "code"));
    static final List<MetricSpec> METRICS = List.of(REQUESTS, REPLIES);

    private final MeterRegistry registry;
    private final String virtualServer;
    private final ConcurrentMap<String, Counter> requests = new ConcurrentHashMap<>();
    /** Per real, one slot per reply code (0..255), filled on first use. */
    private final ConcurrentMap<String, Counter[]> replies = new ConcurrentHashMap<>();

    HaCounters(MeterRegistry registry, String virtualServer) {
        this.registry = registry;
        this.virtualServer = virtualServer;
    }

    void request(RealView real) {
        Counter c = requests.get(real.id());
        if (c == null) {
            c = requests.computeIfAbsent(real.id(), id -> REQUESTS.counter()
                    .tag("vserver", virtualServer).tag("real", id).register(registry));
        }
        c.increment();
    }

    void reply(String real, int code) {
        Counter[] byCode = replies.get(real);
        if (byCode == null) {
            byCode = replies.computeIfAbsent(real, r -> new Counter[256]);
        }
        Counter c = byCode[code & 0xff];
        if (c == null) {
            // Registering twice (two event loops at once) returns the same meter: no lock needed.
            c = REPLIES.counter()
                    .tag("vserver", virtualServer).tag("real", real).tag("code", Integer.toString(code & 0xff))
                    .register(registry);
            byCode[code & 0xff] = c;
        }
        c.increment();
    }

    /** For tests and the summary: requests sent to {@code real} so far. */
    double requests(String real) {
        Counter c = requests.get(real);
        return c == null ? 0 : c.count();
    }
}
