#!/usr/bin/env python3
"""Writes the load template of the RADIUS benchmark: a classic pcap (Ethernet) holding one
Access-Request to DST:PORT (RFC 2865 §4.1) with User-Name, a 16-octet User-Password,
Calling-Station-Id 4915100000000 and a zero Message-Authenticator (RFC 3579 §3.2).
`switchboard replay --vary calling-station-id:K --secret S` gives each copy a fresh identifier and
Request Authenticator, rewrites the last digits of the Calling-Station-Id and signs it.

usage: template.py FILE DST_ADDRESS PORT
"""
import os
import socket
import struct
import sys

path, dst, port = sys.argv[1], sys.argv[2], int(sys.argv[3])


def attribute(kind, value):
    return struct.pack("!BB", kind, 2 + len(value)) + value


attributes = (attribute(1, b"benchuser")                # User-Name
              + attribute(2, os.urandom(16))            # User-Password, hidden (any 16 octets)
              + attribute(31, b"4915100000000")         # Calling-Station-Id
              + attribute(80, bytes(16)))               # Message-Authenticator
radius = struct.pack("!BBH", 1, 0, 20 + len(attributes)) + os.urandom(16) + attributes
udp = struct.pack("!HHHH", 40000, port, 8 + len(radius), 0) + radius
header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                     socket.inet_aton("127.0.0.1"), socket.inet_aton(dst))
checksum = sum(struct.unpack("!10H", header))
while checksum > 0xffff:
    checksum = (checksum & 0xffff) + (checksum >> 16)
header = header[:10] + struct.pack("!H", ~checksum & 0xffff) + header[12:]
frame = bytes(6) + bytes(6) + b"\x08\x00" + header + udp
with open(path, "wb") as out:
    out.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
    out.write(struct.pack("<IIII", 0, 0, len(frame), len(frame)) + frame)
