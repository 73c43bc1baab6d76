#!/usr/bin/python3
"""Crafts Mobile IPv4 Registration Requests with scapy (Debian's python3-scapy), one per line in hex.

Scapy knows the fixed RRQ fields only; the MN-NAI extension (RFC 2794, type 131) and the MN-HA
authentication extension (RFC 5944 §3.5.2, type 32, SPI + HMAC-MD5 over the message up to and
including the SPI, §3.5.1) are appended by hand.

usage: mip_rrq.py HOME_AGENT KEY_HEX SPI COUNT FIRST_ID
  request i (0-based): home address 10.99.(i/250).(i%250+1), care-of address 192.0.2.1,
  identification FIRST_ID + i * 2**24 (distinct in tshark's nanosecond NTP rendering), NAI mn<i>@ha.switchboard.example, lifetime 1800, flags 0.
"""
import hashlib
import hmac
import struct
import sys

from scapy.layers.mobileip import MobileIP, MobileIPRRQ
from scapy.compat import raw


def rrq(home_agent, key, spi, i, ident):
    home = "10.99.%d.%d" % (i // 250, i % 250 + 1)
    fixed = raw(MobileIP(type=1) / MobileIPRRQ(flags=0, lifetime=1800, homeaddr=home, haaddr=home_agent,
                                                 coaddr="192.0.2.1", id=ident))
    nai = ("mn%d@ha.switchboard.example" % i).encode()
    nai_ext = struct.pack("!BB", 131, len(nai)) + nai
    auth_head = struct.pack("!BBI", 32, 4 + 16, spi)
    covered = fixed + nai_ext + auth_head
    return covered + hmac.new(key, covered, hashlib.md5).digest()


def main():
    home_agent, key_hex, spi, count, first = sys.argv[1:6]
    key = bytes.fromhex(key_hex)
    for i in range(int(count)):
        print(rrq(home_agent, key, int(spi), i, int(first) + i * 2**24).hex())


if __name__ == "__main__":
    main()
