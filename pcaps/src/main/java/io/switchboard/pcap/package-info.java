/**
 * Captures: reading {@code .pcap} and {@code .pcapng} files through pcap4j (libpcap), taking the UDP
 * datagrams out of them (Ethernet with VLAN tags, Linux cooked SLL and SLL2, raw IP, BSD loopback;
 * IPv4 with fragment reassembly, IPv6), recognising the signaling protocols Switchboard directs, and
 * describing each message field by field ({@link io.switchboard.pcap.SignalingInspector}) the way
 * {@code switchboard inspect} prints it. {@link io.switchboard.pcap.PcapWriter} writes classic pcap
 * files, for tests and tools.
 */
package io.switchboard.pcap;
