package io.switchboard.director.testing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A classic pcap file (link type 101, raw IP) of UDP datagrams over IPv4, written by tests from what
 * their peers received, so that an independent decoder (tshark) can read what the director sent.
 * Checksums are left at zero (UDP: none; IP: tshark does not verify it by default).
 */
public final class PcapFile {

    private static final int LINKTYPE_RAW = 101;

    private record Datagram(InetSocketAddress from, InetSocketAddress to, byte[] payload, long micros) {
    }

    private final List<Datagram> datagrams = new ArrayList<>();

    public synchronized void add(InetSocketAddress from, InetSocketAddress to, byte[] payload) {
        datagrams.add(new Datagram(from, to, payload.clone(), System.currentTimeMillis() * 1000));
    }

    public synchronized int size() {
        return datagrams.size();
    }

    public synchronized void write(Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
            header.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0)
                    .putInt(65535).putInt(LINKTYPE_RAW);
            out.write(header.array());
            for (Datagram d : datagrams) {
                int length = 20 + 8 + d.payload.length;
                ByteBuffer record = ByteBuffer.allocate(16 + length);
                record.order(ByteOrder.LITTLE_ENDIAN).putInt((int) (d.micros / 1_000_000))
                        .putInt((int) (d.micros % 1_000_000)).putInt(length).putInt(length);
                record.order(ByteOrder.BIG_ENDIAN);
                record.put((byte) 0x45).put((byte) 0).putShort((short) length).putInt(0)
                        .put((byte) 64).put((byte) 17).putShort((short) 0)
                        .put(d.from.getAddress().getAddress()).put(d.to.getAddress().getAddress());
                record.putShort((short) d.from.getPort()).putShort((short) d.to.getPort())
                        .putShort((short) (8 + d.payload.length)).putShort((short) 0);
                record.put(d.payload);
                out.write(record.array());
            }
        }
    }
}
