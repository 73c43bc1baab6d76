package io.switchboard.app;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * TCP ports on 127.0.0.1 for node processes that this JVM starts (the cluster demo, the tests'
 * nodes): chosen here, bound there.
 */
public final class LoopbackPorts {

    /** Ports handed out by this JVM so far: each one once. */
    private static final Set<Integer> TAKEN = new HashSet<>();

    private LoopbackPorts() {
    }

    /**
     * A TCP port free on 127.0.0.1 now, below Linux's ephemeral range (32768 and up by default): a
     * port the kernel hands out for a bind to port 0 can be taken as the source port of an outgoing
     * connection — node processes' Hazelcast members open many — before the process that is meant to
     * listen on it binds it, which then fails with "Address already in use".
     */
    public static synchronized int freeTcpPort() throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = random.nextInt(20_000, 32_768);
            if (TAKEN.contains(port)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
                TAKEN.add(port);
                return s.getLocalPort();
            } catch (BindException inUse) {
                // in use: try another
            }
        }
        throw new IOException("no free TCP port found on 127.0.0.1 between 20000 and 32767");
    }
}
