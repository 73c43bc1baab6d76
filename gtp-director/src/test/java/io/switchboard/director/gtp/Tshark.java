package io.switchboard.director.gtp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Checks GTP-C datagrams with an independent decoder: writes them into a pcap (raw IPv4, UDP 2123 ↔
 * 2123) and reads fields back with {@code tshark -T fields}.
 */
final class Tshark {

    static final Path BINARY = Path.of("/usr/bin/tshark");

    private Tshark() {
    }

    static boolean available() {
        return Files.isExecutable(BINARY);
    }

    /** Writes {@code payloads} as UDP datagrams 127.0.0.1:2123 → 127.0.0.2:2123 in a pcap (LINKTYPE_RAW). */
    static void writePcap(Path file, List<byte[]> payloads) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(101);
        out.writeBytes(header.array());
        int second = 1;
        for (byte[] payload : payloads) {
            int length = 20 + 8 + payload.length;
            ByteBuffer record = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            record.putInt(second++).putInt(0).putInt(length).putInt(length);
            out.writeBytes(record.array());
            ByteBuffer ip = ByteBuffer.allocate(length);
            ip.put((byte) 0x45).put((byte) 0).putShort((short) length).putShort((short) 0).putShort((short) 0)
                    .put((byte) 64).put((byte) 17).putShort((short) 0)
                    .put(new byte[] {127, 0, 0, 1}).put(new byte[] {127, 0, 0, 2});
            ip.putShort(4, (short) 0);
            ip.putShort(10, checksum(ip.array()));
            ip.putShort((short) 2123).putShort((short) 2123).putShort((short) (8 + payload.length)).putShort((short) 0);
            ip.put(payload);
            out.writeBytes(ip.array());
        }
        Files.write(file, out.toByteArray());
    }

    private static short checksum(byte[] packet) {
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += ((packet[i] & 0xff) << 8) | (packet[i + 1] & 0xff);
        }
        while ((sum >> 16) != 0) {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        return (short) ~sum;
    }

    /** One line per frame: the fields, separated by {@code |}, multiple occurrences by {@code ;}. */
    static List<String> fields(Path pcap, String... fields) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(BINARY.toString(), "-r", pcap.toString(), "-T", "fields",
                "-E", "separator=|", "-E", "occurrence=a", "-E", "aggregator=;"));
        for (String f : fields) {
            command.add("-e");
            command.add(f);
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("tshark failed: " + new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        }
        return new String(output, StandardCharsets.UTF_8).lines().toList();
    }
}
