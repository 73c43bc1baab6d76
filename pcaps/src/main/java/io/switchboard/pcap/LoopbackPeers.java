package io.switchboard.pcap;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated peers of a live what-if run, each a UDP socket on loopback: a simulated real per
 * configured real (named {@code farm/address:port} as configured), a simulated requester per source
 * ({@code address:port}) of the captures, opened when it first sends. Read by one thread, the run's,
 * through one selector: {@link #poll} waits at most the time given for what has arrived.
 */
final class LoopbackPeers implements AutoCloseable {

    /**
     * A datagram that arrived.
     *
     * @param real      the simulated real that received it, or null
     * @param requester the captured source whose simulated requester received it, or null
     * @param from      who sent it
     */
    record Arrival(String real, InetSocketAddress requester, InetSocketAddress from, byte[] payload) {
    }

    private record Peer(String real, InetSocketAddress requester, DatagramChannel channel) {
    }

    private final Selector selector;
    private final LoopbackLayout layout;
    private final Map<String, Peer> reals = new LinkedHashMap<>();
    private final Map<InetSocketAddress, Peer> requesters = new HashMap<>();
    private final ByteBuffer buffer = ByteBuffer.allocate(65_536);

    LoopbackPeers(LoopbackLayout layout) throws IOException {
        this.layout = layout;
        this.selector = Selector.open();
    }

    /** Opens the simulated real {@code name} on the stand-in address of {@code configured}; returns where it is bound. */
    InetSocketAddress openReal(String name, InetAddress configured) throws IOException {
        DatagramChannel channel = bind(new InetSocketAddress(layout.realAddress(configured), 0));
        Peer peer = new Peer(name, null, channel);
        reals.put(name, peer);
        channel.register(selector, SelectionKey.OP_READ, peer);
        return (InetSocketAddress) channel.getLocalAddress();
    }

    private static DatagramChannel bind(InetSocketAddress at) throws IOException {
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.configureBlocking(false);
            channel.bind(at);
            return channel;
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot bind a simulated peer on " + at + ": " + e.getMessage(), e);
        }
    }

    /** The simulated requester of a captured source, opened on its stand-in address when new. */
    private Peer requester(InetSocketAddress captured) {
        return requesters.computeIfAbsent(captured, c -> {
            try {
                DatagramChannel channel = bind(new InetSocketAddress(layout.requesterAddress(c.getAddress()), 0));
                Peer peer = new Peer(null, c, channel);
                channel.register(selector, SelectionKey.OP_READ, peer);
                return peer;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Where the simulated requester of {@code captured} is bound. */
    InetSocketAddress requesterAddress(InetSocketAddress captured) throws IOException {
        return (InetSocketAddress) requester(captured).channel().getLocalAddress();
    }

    /** Sends {@code payload} from the simulated requester of the captured source {@code captured}. */
    void sendFromRequester(InetSocketAddress captured, byte[] payload, InetSocketAddress to) throws IOException {
        send(requester(captured).channel(), payload, to);
    }

    /** Sends {@code payload} from the simulated real {@code real}. */
    void sendFromReal(String real, byte[] payload, InetSocketAddress to) throws IOException {
        send(reals.get(real).channel(), payload, to);
    }

    private static void send(DatagramChannel channel, byte[] payload, InetSocketAddress to) throws IOException {
        if (channel.send(ByteBuffer.wrap(payload), to) == 0) {
            throw new IOException("the simulated peer's socket buffer is full");
        }
    }

    /** What arrived, waiting at most {@code millis} for the first. */
    List<Arrival> poll(long millis) throws IOException {
        List<Arrival> arrivals = new ArrayList<>();
        if (selector.select(Math.max(1, millis)) == 0) {
            return arrivals;
        }
        for (SelectionKey key : selector.selectedKeys()) {
            Peer peer = (Peer) key.attachment();
            for (;;) {
                buffer.clear();
                InetSocketAddress from = (InetSocketAddress) peer.channel().receive(buffer);
                if (from == null) {
                    break;
                }
                buffer.flip();
                byte[] payload = new byte[buffer.remaining()];
                buffer.get(payload);
                arrivals.add(new Arrival(peer.real(), peer.requester(), from, payload));
            }
        }
        selector.selectedKeys().clear();
        return arrivals;
    }

    @Override
    public void close() {
        for (Peer peer : reals.values()) {
            closeQuietly(peer.channel());
        }
        for (Peer peer : requesters.values()) {
            closeQuietly(peer.channel());
        }
        try {
            selector.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }

    private static void closeQuietly(DatagramChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing: nothing to do about it
        }
    }
}
