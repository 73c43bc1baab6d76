#!/usr/bin/python3
"""Writes gtpv2-resource-cause.pcap: GTPv2-C between one MME (192.0.2.10) and an SGW address
(192.0.2.1), both on UDP 2123, made for Switchboard's what-if tests (same licence as the project).

  1 Create Session Request   IMSI 001010000000001, seq 1
  2 Create Session Response  cause 73 "No resources available" (TS 29.274 §8.4), seq 1
  3 Create Session Request   IMSI 001010000000002, seq 2
  4 Create Session Response  cause 16 "Request accepted", SGW S11 F-TEID 0x0000b002, seq 2
  5 Modify Bearer Request    header TEID 0x0000b002, EBI 5, seq 3
  6 Modify Bearer Response   cause 16, seq 3
  7 Delete Session Request   header TEID 0x0000b002, EBI 5, seq 4
  8 Delete Session Response  cause 16, seq 4
  9 Create Session Request   IMSI 001010000000003, seq 5
 10 Create Session Response  cause 16, SGW S11 F-TEID 0x0000b003, seq 5

The GTPv2 bytes are built here with struct (scapy 2.5 gets GTPv2 lengths wrong, see docs/interop.md);
scapy only wraps them in Ethernet/IPv4/UDP and writes the file. Check:
  tshark -r gtpv2-resource-cause.pcap -T fields -e frame.number -e gtpv2.message_type -e gtpv2.cause -e gtpv2.imsi
Run with /usr/bin/python3 (Debian's python3-scapy).
"""
import struct
from scapy.all import Ether, IP, UDP, Raw, wrpcap

MME, SGW = "192.0.2.10", "192.0.2.1"
MME_TEID = 0x0000A001


def ie(kind, value, instance=0):
    return struct.pack("!BHB", kind, len(value), instance & 0x0F) + value


def tbcd(digits):
    digits += "F" * (len(digits) % 2)
    return bytes(int(digits[i + 1], 16) << 4 | int(digits[i], 16) for i in range(0, len(digits), 2))


def fteid(interface, teid, ipv4):
    return ie(87, struct.pack("!BI", 0x80 | interface, teid) + bytes(int(x) for x in ipv4.split(".")))


def gtpv2(kind, teid, seq, body):
    # flags: version 2, P=0, T=1; length counts everything after the first 4 octets
    return struct.pack("!BBHI", 0x48, kind, len(body) + 8, teid) + struct.pack("!I", seq << 8) + body


def cause(value):
    return ie(2, bytes([value, 0]))


def create(imsi, seq):
    return gtpv2(32, 0, seq, ie(1, tbcd(imsi)) + ie(71, b"\x08internet") + ie(82, b"\x06")
                 + fteid(10, MME_TEID + seq, MME))  # RAT type E-UTRAN; S11 MME GTP-C


def created(seq, value, sgw_teid=None):
    body = cause(value) + (fteid(11, sgw_teid, SGW) if sgw_teid else b"")  # S11/S4 SGW GTP-C
    return gtpv2(33, MME_TEID + seq, seq, body)


def ebi(n):
    return ie(73, bytes([n]))


def write(name, packets):
    frames = []
    for i, (src, dst, payload) in enumerate(packets):
        p = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src=src, dst=dst) / UDP(sport=2123, dport=2123) / Raw(payload)
        p.time = 1700000000 + i * 0.01
        frames.append(p)
    wrpcap(name, frames)


PACKETS = [
    (MME, SGW, create("001010000000001", 1)),
    (SGW, MME, created(1, 73)),
    (MME, SGW, create("001010000000002", 2)),
    (SGW, MME, created(2, 16, 0x0000B002)),
    (MME, SGW, gtpv2(34, 0x0000B002, 3, ebi(5))),
    (SGW, MME, gtpv2(35, MME_TEID + 2, 3, cause(16))),
    (MME, SGW, gtpv2(36, 0x0000B002, 4, ebi(5))),
    (SGW, MME, gtpv2(37, MME_TEID + 2, 4, cause(16))),
    (MME, SGW, create("001010000000003", 5)),
    (SGW, MME, created(5, 16, 0x0000B003)),
]
if __name__ == "__main__":
    write("gtpv2-resource-cause.pcap", PACKETS)
