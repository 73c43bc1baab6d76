package io.switchboard.pcap;

import java.time.Instant;

/**
 * One record of a capture file.
 *
 * @param number         1-based, as tshark and Wireshark count frames
 * @param timestamp      when it was captured
 * @param linkType       libpcap's DLT value for the frame's link layer (1 Ethernet, 12 raw IP, 113 SLL, ...)
 * @param originalLength octets on the wire; more than {@code data.length} when the snap length cut it
 * @param data           the captured octets
 */
public record CaptureFrame(int number, Instant timestamp, int linkType, int originalLength, byte[] data) {

    /** Whether the capture kept fewer octets than were on the wire. */
    public boolean truncated() {
        return originalLength > data.length;
    }
}
