package io.switchboard.director.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * The top-level {@code transport} key: which Netty transport every socket of the node uses (Vert.x's
 * event loops and every channel the directors open on them). Absent: epoll where it is available,
 * else NIO (the default before the key existed); given, it is required (the node refuses to start
 * without it, see {@code io.switchboard.director.transport.Transports}).
 */
public enum TransportKind {
    /** Linux epoll: recvmmsg batches, one SO_REUSEPORT socket per event loop. */
    EPOLL("epoll"),
    /** Linux io_uring (Netty 4.2): reads and writes submitted to the kernel's rings. */
    IO_URING("io_uring"),
    /** Java NIO: one socket per virtual server, one datagram per read; any platform. */
    NIO("nio");

    private final String configName;

    TransportKind(String configName) {
        this.configName = configName;
    }

    public String configName() {
        return configName;
    }

    public static Optional<TransportKind> fromConfigName(String name) {
        return Arrays.stream(values()).filter(k -> k.configName.equals(name)).findFirst();
    }
}
