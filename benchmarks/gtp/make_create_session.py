#!/usr/bin/python3
"""Writes create-session.pcap, the GTP benchmark's template (same licence as the project): one GTPv2
Create Session Request from an MME (192.0.2.10) to an SGW address (192.0.2.1), UDP 2123, with the
information elements an MME sends on S11 for an E-UTRAN initial attach (TS 29.274 §7.2.1), so that
the benchmark directs what a real one would carry:

  IMSI 001010000000001, MSISDN, RAT type E-UTRAN, Serving Network 001/01, sender F-TEID (S11 MME
  GTP-C, TEID 0x0000a001), PGW S5/S8 F-TEID (instance 1), APN "internet", selection mode, PDN type
  IPv4, PAA 0.0.0.0, APN restriction, APN-AMBR, and a Bearer Context to be created with EBI 5 and
  the bearer's QoS (QCI 9); sequence 1.

`switchboard replay --vary imsi:N` rewrites the IMSI digits, so N subscribers each create their
default bearer (EBI 5) again and again: a create for a bearer that has a session replaces it, as
TS 29.274 §7.2.1 says, and the director holds N sessions, not one per request.

The GTPv2 bytes are built with struct (scapy 2.5 gets GTPv2 lengths wrong, see docs/interop.md); scapy
only wraps them in Ethernet/IPv4/UDP and writes the file. Run with /usr/bin/python3 (Debian's
python3-scapy). Check:
  tshark -r create-session.pcap -T fields -e gtpv2.message_type -e e212.imsi -e gtpv2.ebi -e gtpv2.apn
"""
import struct
import sys
from scapy.all import Ether, IP, UDP, Raw, wrpcap

MME, SGW, PGW = "192.0.2.10", "192.0.2.1", "192.0.2.2"


def ie(kind, value, instance=0):
    return struct.pack("!BHB", kind, len(value), instance & 0x0F) + value


def tbcd(digits):
    digits += "F" * (len(digits) % 2)
    return bytes(int(digits[i + 1], 16) << 4 | int(digits[i], 16) for i in range(0, len(digits), 2))


def ipv4(address):
    return bytes(int(x) for x in address.split("."))


def fteid(interface, teid, address, instance=0):
    return ie(87, struct.pack("!BI", 0x80 | interface, teid) + ipv4(address), instance)


body = (ie(1, tbcd("001010000000001"))                       # §8.3 IMSI
        + ie(76, tbcd("491720000001"))                       # §8.11 MSISDN
        + ie(82, b"\x06")                                    # §8.17 RAT type: E-UTRAN
        + ie(83, bytes([0x00, 0xF1, 0x10]))                  # §8.18 Serving Network: MCC 001, MNC 01
        + fteid(10, 0x0000A001, MME)                         # §8.22 sender F-TEID: S11 MME GTP-C
        + fteid(7, 0, PGW, instance=1)                       # PGW S5/S8 GTP-C (TEID not known yet)
        + ie(71, b"\x08internet")                            # §8.6 APN
        + ie(128, b"\x00")                                   # §8.58 selection mode: verified
        + ie(99, b"\x01")                                    # §8.34 PDN type: IPv4
        + ie(79, b"\x01" + ipv4("0.0.0.0"))                  # §8.14 PAA: IPv4, to be allocated
        + ie(127, b"\x00")                                   # §8.57 maximum APN restriction
        + ie(72, struct.pack("!II", 50000, 100000))          # §8.7 APN-AMBR (kbps up, down)
        + ie(93, ie(73, b"\x05")                             # §8.28 Bearer Context: §8.8 EBI 5,
             + ie(80, bytes([0x01, 9]) + bytes(20))))        # §8.15 bearer QoS: ARP, QCI 9, no GBR
header = struct.pack("!BBHI", 0x48, 32, len(body) + 8, 0) + struct.pack("!I", 1 << 8)  # v2, T=1, TEID 0, seq 1
packet = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / IP(src=MME, dst=SGW) / UDP(sport=2123, dport=2123) \
    / Raw(header + body)
packet.time = 1700000000
wrpcap(sys.argv[1] if len(sys.argv) > 1 else "create-session.pcap", [packet])
