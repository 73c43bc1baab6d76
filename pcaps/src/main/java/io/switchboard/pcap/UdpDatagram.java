package io.switchboard.pcap;

import io.netty.util.NetUtil;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * One UDP datagram of a capture.
 *
 * @param frame     1-based frame number; for a datagram reassembled from IPv4 fragments, the frame of
 *                  the fragment that completed it (as tshark reports it)
 * @param fragments how many IPv4 fragments it was reassembled from; 1 when it was not fragmented
 * @param payload   the UDP payload, as far as the capture holds it
 */
public record UdpDatagram(int frame, InetAddress source, int sourcePort, InetAddress destination,
                          int destinationPort, byte[] payload, int fragments) implements CaptureEvent {

    /** {@code 192.0.2.1:2123}, or {@code [2001:db8::1]:2123}. */
    public String sourceText() {
        return endpoint(source, sourcePort);
    }

    public String destinationText() {
        return endpoint(destination, destinationPort);
    }

    static String endpoint(InetAddress address, int port) {
        String host = NetUtil.toAddressString(address); // RFC 5952: 2001:db8::1, as tshark prints it
        return address instanceof Inet6Address ? "[" + host + "]:" + port : host + ":" + port;
    }

    @Override
    public String toString() {
        return "frame " + frame + " " + sourceText() + " -> " + destinationText() + " (" + payload.length + " bytes)";
    }
}
