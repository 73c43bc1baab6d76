package io.switchboard.director.ha;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.spi.RealView;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Mobile IP counters of one virtual server, per home agent: Registration Requests sent to it
 * (retransmissions included) and Registration Replies relayed from it, by reply code. Shared by the
 * virtual server's event loops; counters are resolved once per (real, code) and then only
 * incremented.
 */
final class HaCounters {

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
            c = requests.computeIfAbsent(real.id(), id -> Counter.builder("switchboard.ipmobile.requests")
                    .description("Registration Requests sent to a home agent, retransmissions included")
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
            c = Counter.builder("switchboard.ipmobile.replies")
                    .description("Registration Replies from a home agent relayed to the requester, by code")
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
