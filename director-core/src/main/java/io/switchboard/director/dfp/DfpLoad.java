package io.switchboard.director.dfp;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A Load TLV (draft-eck-dfp-01 §5.2): the weights of the hosts of one port and protocol, 0 being the
 * wildcard of each.
 *
 * @param port     the hosts' port; 0 for any
 * @param protocol the hosts' IP protocol (6 TCP, 17 UDP); 0 for any
 * @param hosts    one Host Preference Field per host
 */
public record DfpLoad(int port, int protocol, List<Host> hosts) {

    /** §6.1: a Preference Information message reports 0 to 128 servers. */
    public static final int MAX_HOSTS = 128;
    private static final int FIXED = 8;
    private static final int HOST = 8;

    public DfpLoad {
        if (port < 0 || port > 0xFFFF || protocol < 0 || protocol > 0xFF || hosts.size() > MAX_HOSTS) {
            throw new IllegalArgumentException("port 16 bits, protocol 8 bits, at most 128 hosts");
        }
        hosts = List.copyOf(hosts);
    }

    /**
     * A Host Preference Field (§5.2): an IPv4 address (the draft has no other), the bind ID and the
     * weight, 0 meaning "no more flows" (§5.2.1).
     */
    public record Host(Inet4Address address, int bindId, int weight) {
        public Host {
            if (bindId < 0 || bindId > 0xFFFF || weight < 0 || weight > 0xFFFF) {
                throw new IllegalArgumentException("bind ID and weight are 16 bits");
            }
        }
    }

    DfpMessage.Tlv tlv() {
        ByteBuffer b = ByteBuffer.allocate(FIXED + HOST * hosts.size());
        b.putShort((short) port).put((byte) protocol).put((byte) 0); // Flags: "currently set to zeros"
        b.putShort((short) hosts.size()).putShort((short) 0); // Reserved: all zeros
        for (Host h : hosts) {
            b.put(h.address().getAddress()).putShort((short) h.bindId()).putShort((short) h.weight());
        }
        return new DfpMessage.Tlv(DfpMessage.TLV_LOAD, b.array());
    }

    static DfpLoad read(byte[] value) {
        if (value.length < FIXED) {
            throw new DfpException("Load TLV value is " + value.length + " bytes, fewer than its 8 fixed ones");
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        int port = b.getShort() & 0xFFFF;
        int protocol = b.get() & 0xFF;
        b.get(); // flags
        int count = b.getShort() & 0xFFFF;
        b.getShort(); // reserved
        if (count > MAX_HOSTS || value.length != FIXED + HOST * count) {
            throw new DfpException("Load TLV says " + count + " hosts in " + (value.length - FIXED) + " bytes");
        }
        List<Host> hosts = new ArrayList<>(count);
        byte[] ip = new byte[4];
        for (int i = 0; i < count; i++) {
            b.get(ip);
            int bindId = b.getShort() & 0xFFFF;
            int weight = b.getShort() & 0xFFFF;
            hosts.add(new Host(ipv4(ip), bindId, weight));
        }
        return new DfpLoad(port, protocol, hosts);
    }

    private static Inet4Address ipv4(byte[] ip) {
        try {
            return (Inet4Address) InetAddress.getByAddress(ip.clone());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 bytes always make an address
        }
    }
}
