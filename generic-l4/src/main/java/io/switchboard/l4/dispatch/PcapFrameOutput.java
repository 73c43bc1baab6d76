package io.switchboard.l4.dispatch;

import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.HashMap;
import java.util.Map;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;

/**
 * Injects frames through libpcap ({@code pcap_sendpacket}), one send-only handle per interface,
 * opened at start. The source MAC of every frame becomes the interface's own.
 */
final class PcapFrameOutput implements FrameOutput, AutoCloseable {

    private record Port(PcapHandle handle, byte[] mac) {
    }

    private final Map<String, Port> ports = new HashMap<>();

    /** Opens the interface for sending (idempotent); fails at start rather than at the first frame. */
    void open(String interfaceName) throws PcapNativeException, NotOpenException, SocketException {
        if (ports.containsKey(interfaceName)) {
            return;
        }
        NetworkInterface nif = NetworkInterface.getByName(interfaceName);
        byte[] mac = nif == null ? null : nif.getHardwareAddress();
        if (mac == null || mac.length != 6) {
            throw new SocketException("interface " + interfaceName + " does not exist or has no Ethernet address");
        }
        PcapHandle handle = new PcapHandle.Builder(interfaceName).snaplen(64)
                .promiscuousMode(PcapNetworkInterface.PromiscuousMode.NONPROMISCUOUS).timeoutMillis(100).build();
        // Send only: a filter that matches no frame keeps the handle's capture buffer empty.
        handle.setFilter("less 1", BpfProgram.BpfCompileMode.OPTIMIZE);
        ports.put(interfaceName, new Port(handle, mac));
    }

    @Override
    public boolean send(String interfaceName, byte[] frame, int length) {
        Port port = ports.get(interfaceName);
        if (port == null) {
            return false;
        }
        System.arraycopy(port.mac, 0, frame, 6, 6);
        try {
            synchronized (port) { // a handle is not safe for two capture threads at once
                port.handle.sendPacket(frame, length);
            }
            return true;
        } catch (PcapNativeException | NotOpenException e) {
            return false;
        }
    }

    @Override
    public void close() {
        ports.values().forEach(p -> p.handle.close());
        ports.clear();
    }
}
