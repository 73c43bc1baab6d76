#!/usr/bin/python3
"""Writes gtpv2-reattach.pcap: one subscriber attaches, detaches and attaches again, GTPv2-C between
one MME (192.0.2.10) and an SGW address (192.0.2.1), both on UDP 2123, made for Switchboard's
what-if tests (same licence as the project). With unstick-on-delete the IMSI's binding ends with its
session: the second attach is balanced afresh and is no stickiness violation.

  1 Create Session Request   IMSI 001010000000009, seq 1
  2 Create Session Response  cause 16 "Request accepted", SGW S11 F-TEID 0x0000b001, seq 1
  3 Delete Session Request   header TEID 0x0000b001, EBI 5, seq 2
  4 Delete Session Response  cause 16, seq 2
  5 Create Session Request   IMSI 001010000000009, seq 3
  6 Create Session Response  cause 16, SGW S11 F-TEID 0x0000b003, seq 3
  7 Modify Bearer Request    header TEID 0x0000b003, EBI 5, seq 4
  8 Modify Bearer Response   cause 16, seq 4

Built with the helpers of make_gtpv2_resource_cause.py (struct for the GTPv2 bytes, scapy for the
frames). Check:
  tshark -r gtpv2-reattach.pcap -T fields -e frame.number -e gtpv2.message_type -e gtpv2.seq -e gtpv2.teid -e gtpv2.cause -e e212.imsi
Run with /usr/bin/python3 (Debian's python3-scapy).
"""
from make_gtpv2_resource_cause import MME, SGW, MME_TEID, cause, create, created, ebi, gtpv2, write

IMSI = "001010000000009"

write("gtpv2-reattach.pcap", [
    (MME, SGW, create(IMSI, 1)),
    (SGW, MME, created(1, 16, 0x0000B001)),
    (MME, SGW, gtpv2(36, 0x0000B001, 2, ebi(5))),
    (SGW, MME, gtpv2(37, MME_TEID + 1, 2, cause(16))),
    (MME, SGW, create(IMSI, 3)),
    (SGW, MME, created(3, 16, 0x0000B003)),
    (MME, SGW, gtpv2(34, 0x0000B003, 4, ebi(5))),
    (SGW, MME, gtpv2(35, MME_TEID + 3, 4, cause(16))),
])
