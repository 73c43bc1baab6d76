package io.switchboard.bench;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The trivial responder of the load generator's ceiling (benchmarks/replay/run.sh): every datagram
 * goes back to its sender unchanged. THREADS sockets share the address with {@code SO_REUSEPORT},
 * one thread each, so that the kernel spreads the generator's sockets over them.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.UdpEcho ADDRESS PORT [THREADS]</pre>
 */
public final class UdpEcho {

    private UdpEcho() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress local = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        for (int i = 0; i < threads; i++) {
            DatagramChannel channel = DatagramChannel.open();
            channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            channel.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            channel.bind(local);
            Thread t = new Thread(() -> echo(channel), "echo-" + i);
            t.start();
        }
        System.out.println("echo ready on " + local + " with " + threads + " socket(s)");
    }

    private static void echo(DatagramChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        try {
            while (true) {
                buffer.clear();
                SocketAddress sender = channel.receive(buffer);
                buffer.flip();
                channel.send(buffer, sender);
            }
        } catch (java.io.IOException e) {
            System.err.println("echo: " + e);
        }
    }
}
