package io.switchboard.pcap;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fallback reader for pcapng files that libpcap refuses: libpcap 1.10 reads a pcapng file only
 * when all its interfaces share one link type and one snap length ("an interface has a snapshot
 * length ... different from the snapshot length of the first interface"), which captures taken on
 * several interfaces at once do not. Reads Section Header, Interface Description, Enhanced Packet and
 * Simple Packet blocks, in either byte order, with each interface's own link type; skips the rest.
 */
final class PcapngBlocks {

    private static final int SECTION_HEADER = 0x0A0D0D0A;
    private static final int INTERFACE_DESCRIPTION = 1;
    private static final int SIMPLE_PACKET = 3;
    private static final int ENHANCED_PACKET = 6;

    private record Interface(int linkType, int snapLength, long unitsPerSecond) {
    }

    private PcapngBlocks() {
    }

    static boolean isPcapng(byte[] file) {
        return file.length >= 12 && ByteBuffer.wrap(file).order(ByteOrder.BIG_ENDIAN).getInt(0) == SECTION_HEADER;
    }

    /** Whether libpcap would refuse the file: interfaces of one section differ in link type or snap length. */
    static boolean interfacesDiffer(byte[] file) {
        List<Interface> interfaces = new ArrayList<>();
        walk(file, interfaces, null);
        return interfaces.stream().map(i -> i.linkType() + "/" + i.snapLength()).distinct().count() > 1;
    }

    static List<CaptureFrame> frames(byte[] file) {
        List<CaptureFrame> frames = new ArrayList<>();
        walk(file, new ArrayList<>(), frames);
        return frames;
    }

    private static void walk(byte[] file, List<Interface> interfaces, List<CaptureFrame> frames) {
        ByteBuffer b = ByteBuffer.wrap(file);
        ByteOrder sectionOrder = ByteOrder.BIG_ENDIAN;
        int number = 0;
        int pos = 0;
        while (pos + 12 <= file.length) {
            int type = b.order(ByteOrder.BIG_ENDIAN).getInt(pos);
            if (type == SECTION_HEADER) {
                // The byte-order magic decides how everything in this section is read.
                b.order(b.order(ByteOrder.BIG_ENDIAN).getInt(pos + 8) == 0x1A2B3C4D
                        ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                interfaces.clear();
            } else {
                b.order(sectionOrder);
                type = b.getInt(pos);
            }
            sectionOrder = b.order();
            int length = b.getInt(pos + 4);
            if (length < 12 || pos + length > file.length) {
                return; // a file cut mid-block
            }
            if (type == INTERFACE_DESCRIPTION) {
                interfaces.add(new Interface(b.getShort(pos + 8) & 0xFFFF, b.getInt(pos + 12), 1_000_000L));
            } else if (frames != null && type == ENHANCED_PACKET) {
                number++; // tshark counts every packet block, readable or not
                int iface = b.getInt(pos + 8);
                long units = ((long) b.getInt(pos + 12) << 32) | (b.getInt(pos + 16) & 0xFFFFFFFFL);
                int captured = b.getInt(pos + 20);
                int original = b.getInt(pos + 24);
                if (captured >= 0 && 28 + captured <= length && iface >= 0 && iface < interfaces.size()) {
                    Interface i = interfaces.get(iface);
                    byte[] data = java.util.Arrays.copyOfRange(file, pos + 28, pos + 28 + captured);
                    frames.add(new CaptureFrame(number, instant(units, i.unitsPerSecond()), i.linkType(),
                            original, data));
                }
            } else if (frames != null && type == SIMPLE_PACKET && interfaces.isEmpty()) {
                number++;
            } else if (frames != null && type == SIMPLE_PACKET) {
                number++;
                int original = b.getInt(pos + 8);
                int captured = Math.min(original, length - 16);
                byte[] data = java.util.Arrays.copyOfRange(file, pos + 12, pos + 12 + Math.max(0, captured));
                frames.add(new CaptureFrame(number, Instant.EPOCH, interfaces.get(0).linkType(), original,
                        data));
            }
            pos += length;
        }
    }

    private static Instant instant(long units, long perSecond) {
        return Instant.ofEpochSecond(units / perSecond, (units % perSecond) * (1_000_000_000L / perSecond));
    }
}
