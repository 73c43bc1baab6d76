package io.switchboard.pcap;

/** What {@link UdpExtractor} finds in a capture: a UDP datagram, or a frame it could not read. */
public sealed interface CaptureEvent permits UdpDatagram, CaptureEvent.Unreadable {

    /** The 1-based frame number this event belongs to (for a reassembled datagram: its last fragment). */
    int frame();

    /**
     * A frame that may have carried UDP but could not be read: cut by the snap length, or IPv4
     * fragments that never completed (reported at the frame of the first fragment seen).
     */
    record Unreadable(int frame, String reason) implements CaptureEvent {
    }
}
