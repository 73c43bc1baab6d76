package io.switchboard.l4.dispatch;

import java.nio.ByteBuffer;

/** Ethernet/IPv4 frames for the dispatcher tests, and a frame output that records what is sent. */
final class Frames {

    static final byte[] DIRECTOR_MAC = Macs.parse("02:00:00:00:02:01");
    static final byte[] CLIENT_MAC = Macs.parse("02:00:00:00:01:01");

    private Frames() {
    }

    static int ip(String dotted) {
        String[] p = dotted.split("\\.");
        return Integer.parseInt(p[0]) << 24 | Integer.parseInt(p[1]) << 16 | Integer.parseInt(p[2]) << 8 | Integer.parseInt(p[3]);
    }

    /** A frame to the director's MAC with an IPv4 header and, for TCP/UDP, the ports and 4 payload octets. */
    static byte[] frame(String source, String destination, int protocol, int sourcePort, int destinationPort) {
        int l4 = 8; // the ports and four payload octets (for other protocols: just payload)
        ByteBuffer b = ByteBuffer.allocate(14 + 20 + l4);
        b.put(DIRECTOR_MAC).put(CLIENT_MAC).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + l4)).putInt(0).put((byte) 64).put((byte) protocol)
                .putShort((short) 0).putInt(ip(source)).putInt(ip(destination));
        b.putShort((short) sourcePort).putShort((short) destinationPort).putInt(0x01020304);
        return b.array();
    }

    record Sent(String interfaceName, byte[] frame) {
        String destinationMac() {
            return Macs.format(java.util.Arrays.copyOf(frame, 6));
        }
    }

    static final class Recorder implements FrameOutput {
        final java.util.List<Sent> sent = new java.util.ArrayList<>();
        boolean refuse;

        @Override
        public boolean send(String interfaceName, byte[] frame, int length) {
            sent.add(new Sent(interfaceName, java.util.Arrays.copyOf(frame, length)));
            return !refuse;
        }

        Sent last() {
            return sent.get(sent.size() - 1);
        }
    }
}
