package io.switchboard.director.ha;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.real.RealServer;
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
    private final ConcurrentMap<String, Counter> replies = new ConcurrentHashMap<>();

    HaCounters(MeterRegistry registry, String virtualServer) {
        this.registry = registry;
        this.virtualServer = virtualServer;
    }

    void request(RealServer real) {
        Counter c = requests.get(real.id());
        if (c == null) {
            c = requests.computeIfAbsent(real.id(), id -> Counter.builder("switchboard.ipmobile.requests")
                    .description("Registration Requests sent to a home agent, retransmissions included")
                    .tag("vserver", virtualServer).tag("real", id).register(registry));
        }
        c.increment();
    }

    void reply(String real, int code) {
        String key = real + '/' + code;
        Counter c = replies.get(key);
        if (c == null) {
            c = replies.computeIfAbsent(key, k -> Counter.builder("switchboard.ipmobile.replies")
                    .description("Registration Replies from a home agent relayed to the requester, by code")
                    .tag("vserver", virtualServer).tag("real", real).tag("code", Integer.toString(code))
                    .register(registry));
        }
        c.increment();
    }

    /** For tests and the summary: requests sent to {@code real} so far. */
    double requests(String real) {
        Counter c = requests.get(real);
        return c == null ? 0 : c.count();
    }
}
