"""What the scapy GTPv2-C peers of the interop tests share (gtpv2_responder.py, gtpv2_requester.py).

The messages are built and parsed with scapy's GTPv2 layers (scapy.contrib.gtp_v2, Debian's
python3-scapy), written from TS 29.274's tables, not from the project's own encoder. Scapy is asked
for bytes only: plain UDP sockets carry them, nothing is sniffed or sent raw.

A peer talks line-oriented JSON with the test that started it: one command object a line on stdin,
one result object a line on stdout. Each result reports exactly what the peer received (decoded by
scapy) and the checks the peer made itself ("errors": empty when every check held). Bad input is
answered with {"error": ...}, never a stack trace.
"""

import json
import socket
import sys
import threading
import time

from scapy.contrib import gtp_v2 as g
from scapy.packet import Raw, raw

# TS 29.274 §4.4.2.1: GTPv2-C requests go to UDP port 2123; responses to the request's source.
GTP_C_PORT = 2123

# TS 29.274 Table 6.1-1: message types.
CREATE_SESSION_REQUEST = 32
CREATE_SESSION_RESPONSE = 33
MODIFY_BEARER_REQUEST = 34
MODIFY_BEARER_RESPONSE = 35
DELETE_SESSION_REQUEST = 36
DELETE_SESSION_RESPONSE = 37
CREATE_BEARER_REQUEST = 95
CREATE_BEARER_RESPONSE = 96
UPDATE_BEARER_REQUEST = 97
UPDATE_BEARER_RESPONSE = 98
DELETE_BEARER_REQUEST = 99
DELETE_BEARER_RESPONSE = 100

REQUESTS = {CREATE_SESSION_REQUEST, MODIFY_BEARER_REQUEST, DELETE_SESSION_REQUEST, CREATE_BEARER_REQUEST,
            UPDATE_BEARER_REQUEST, DELETE_BEARER_REQUEST}

MESSAGES = {
    CREATE_SESSION_REQUEST: g.GTPV2CreateSessionRequest,
    CREATE_SESSION_RESPONSE: g.GTPV2CreateSessionResponse,
    MODIFY_BEARER_REQUEST: g.GTPV2ModifyBearerRequest,
    MODIFY_BEARER_RESPONSE: g.GTPV2ModifyBearerResponse,
    DELETE_SESSION_REQUEST: g.GTPV2DeleteSessionRequest,
    DELETE_SESSION_RESPONSE: g.GTPV2DeleteSessionResponse,
    CREATE_BEARER_REQUEST: g.GTPV2CreateBearerRequest,
    CREATE_BEARER_RESPONSE: g.GTPV2CreateBearerResponse,
    UPDATE_BEARER_REQUEST: g.GTPV2UpdateBearerRequest,
    UPDATE_BEARER_RESPONSE: g.GTPV2UpdateBearerResponse,
    DELETE_BEARER_REQUEST: g.GTPV2DeleteBearerRequest,
    DELETE_BEARER_RESPONSE: g.GTPV2DeleteBearerResponse,
}

# TS 29.274 Table 8.1-1: IE types.
IE_IMSI = 1
IE_CAUSE = 2
IE_EBI = 73
IE_FTEID = 87
IE_BEARER_CONTEXT = 93

# TS 29.274 §8.22 Table 8.22-1: F-TEID interface types.
S1U_ENODEB = 0
S1U_SGW = 1
S5S8_SGW_GTPU = 4
S5S8_PGW_GTPU = 5
S5S8_SGW_GTPC = 6
S5S8_PGW_GTPC = 7
S11_MME_GTPC = 10
S11S4_SGW_GTPC = 11

# TS 29.274 §8.4 Table 8.4-1: cause values.
REQUEST_ACCEPTED = 16
CONTEXT_NOT_FOUND = 64
NO_RESOURCES_AVAILABLE = 73


def accepted(cause):
    """TS 29.274 Table 8.4-1: 16..63 are acceptances."""
    return cause is not None and 16 <= cause <= 63


# ---- building -------------------------------------------------------------------------------------

def fixed(ie):
    """The IE with its length set as TS 29.274 §8.2.1 counts it: the octets after the 4-octet IE
    header (type, length, spare/instance). Scapy 2.5 writes GTPv1's count (everything after the
    length field) instead, so every length is set here, grouped IEs' children first (§8.2.1)."""
    if isinstance(ie, g.IE_BearerContext):
        ie.IE_list = [fixed(child) for child in ie.IE_list]
    ie.length = None
    ie.length = len(raw(ie)) - 4
    return ie


def message(msg_type, teid, seq, ies):
    """A GTPv2-C message with a TEID (TS 29.274 §5.1: T=1, P=0, no piggybacking): the header length
    counts everything after its first 4 octets (§5.5.1), which scapy 2.5 gets wrong as well."""
    packet = g.GTPHeader(version=2, P=0, T=1, MP=0, gtp_type=msg_type, teid=teid, seq=seq, SPARE3=0) \
        / MESSAGES[msg_type](IE_list=[fixed(ie) for ie in ies])
    packet.length = len(raw(packet)) - 4
    return raw(packet)


def fteid(instance, interface, teid, ipv4):
    """TS 29.274 §8.22: F-TEID with an IPv4 address."""
    return g.IE_FTEID(instance=instance, ipv4_present=1, ipv6_present=0, InterfaceType=interface, GRE_Key=teid,
                      ipv4=ipv4)


def cause(value, instance=0):
    """TS 29.274 §8.4: Cause, no offending IE."""
    return g.IE_Cause(instance=instance, Cause=value, PCE=0, BCE=0, CS=0)


def ebi(value, instance=0):
    """TS 29.274 §8.8: EPS Bearer ID."""
    return g.IE_EPSBearerID(instance=instance, EBI=value)


def bearer_context(ies, instance=0):
    """TS 29.274 §8.28: Bearer Context, a grouped IE."""
    return g.IE_BearerContext(instance=instance, IE_list=list(ies))


def bearer_qos(qci=9, priority=8):
    """TS 29.274 §8.15: Bearer Level QoS (no bit rates: a non-GBR bearer)."""
    return g.IE_Bearer_QoS(PCI=1, PriorityLevel=priority, PVI=0, QCI=qci, MaxBitRateForUplink=0,
                           MaxBitRateForDownlink=0, GuaranteedBitRateForUplink=0, GuaranteedBitRateForDownlink=0)


def tft():
    """TS 29.274 §8.19 / TS 24.008 §10.5.6.12: a TFT creating one bidirectional packet filter (UDP)."""
    # operation 1 (create new TFT), E=0, 1 filter; filter 1 bidirectional, precedence 1, 2 octets:
    # protocol identifier / next header (0x30) = 17.
    return g.IE_BearerTFT(Bearer_TFT=bytes([0x21, 0x31, 0x01, 0x02, 0x30, 0x11]))


# ---- parsing --------------------------------------------------------------------------------------

def ie_fields(ie):
    """An IE as a plain dict: type, instance, and the values the tests look at."""
    if isinstance(ie, Raw):
        return {"type": None, "raw": bytes(ie).hex()}
    fields = {"type": ie.ietype, "instance": getattr(ie, "instance", 0)}
    if ie.ietype == IE_FTEID:
        fields.update(interface=ie.InterfaceType, teid=ie.GRE_Key,
                      ipv4=ie.ipv4 if ie.ipv4_present else None)
    elif ie.ietype == IE_CAUSE:
        fields["cause"] = ie.Cause
    elif ie.ietype == IE_EBI:
        fields["ebi"] = ie.EBI
    elif ie.ietype == IE_IMSI:
        fields["imsi"] = ie.IMSI.decode("ascii")
    elif ie.ietype == IE_BEARER_CONTEXT:
        fields["ies"] = [ie_fields(child) for child in ie.IE_list or []]
    return fields


def decode(data):
    """A received datagram as a dict, or one with "undecodable" when scapy cannot read it as
    GTPv2-C (the message is reported, not dropped silently)."""
    try:
        header = g.GTPHeader(data)
        if header.version != 2:
            return {"undecodable": "GTP version %d" % header.version, "hex": data.hex()}
        body = header.payload
        ies = [ie_fields(ie) for ie in getattr(body, "IE_list", None) or []]
        return {"type": header.gtp_type, "teid": header.teid if header.T else None, "seq": header.seq,
                "length_ok": header.length == len(data) - 4, "ies": ies, "hex": data.hex()}
    except Exception as e:  # scapy raises many kinds on a malformed datagram: reported, not raised
        return {"undecodable": "%s: %s" % (type(e).__name__, e), "hex": data.hex()}


def find(ies, ie_type, instance=0):
    """The first IE of that type and instance in a decoded list, or None."""
    for ie in ies or []:
        if ie.get("type") == ie_type and ie.get("instance") == instance:
            return ie
    return None


def find_all(ies, ie_type, instance=0):
    return [ie for ie in ies or [] if ie.get("type") == ie_type and ie.get("instance") == instance]


def cause_of(msg):
    ie = find(msg.get("ies"), IE_CAUSE)
    return None if ie is None else ie["cause"]


# ---- the peer -------------------------------------------------------------------------------------

class Peer:
    """A GTP-C endpoint on one UDP socket: answers requests as they come (in a thread of its own),
    sends its own requests with TS 29.274 §7.6 reliable delivery and logs every datagram."""

    def __init__(self, address, port, t3, n3, first_seq):
        self.address = address
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind((address, port))
        self.port = self.sock.getsockname()[1]
        self.t3 = t3
        self.n3 = n3
        self.lock = threading.Condition()
        self.log = []                 # every datagram received, decoded, in order
        self.answered = {}            # (source, seq) -> the response sent: §7.6 duplicates get it again
        self.waiting = {}             # seq of an outstanding own request -> its response, once received
        self.drop_answers = 0         # answers to lose: remembered for duplicates, never sent
        self.next_seq = first_seq & 0xFFFFFF
        self.handler = None

    def sequence(self):
        """TS 29.274 §7.6: a new sequence number for each request this peer initiates (24 bits)."""
        with self.lock:
            seq = self.next_seq
            self.next_seq = (self.next_seq + 1) & 0xFFFFFF
            return seq

    def start(self, handler):
        """handler(msg, source) returns the response bytes to a new request, or None to send none."""
        self.handler = handler
        threading.Thread(target=self._receive, daemon=True).start()

    def _receive(self):
        while True:
            try:
                data, source = self.sock.recvfrom(65535)
            except OSError:
                return
            msg = decode(data)
            msg["from"] = "%s:%d" % source
            with self.lock:
                msg["index"] = len(self.log)
                self.log.append(msg)
                if "undecodable" in msg:
                    continue
                if msg["type"] not in REQUESTS:
                    if msg["seq"] in self.waiting and self.waiting[msg["seq"]] is None:
                        self.waiting[msg["seq"]] = msg
                    else:
                        msg["unexpected"] = True  # a second answer, or one to no request of ours
                    self.lock.notify_all()
                    continue
                key = (source, msg["seq"])
                previous = self.answered.get(key)
                msg["duplicate"] = previous is not None
            if previous is None:
                try:
                    response = self.handler(msg, source)
                except Exception as e:  # a request the handler cannot read is logged, not fatal
                    msg["handler_error"] = "%s: %s" % (type(e).__name__, e)
                    response = None
                if response is None:
                    continue
                with self.lock:
                    self.answered[key] = response
            else:
                response = previous  # §7.6: a retransmitted request gets the response again
            self._answer(response, source, msg)

    def _answer(self, response, destination, msg):
        with self.lock:
            lose = self.drop_answers > 0
            if lose:
                self.drop_answers -= 1
        msg["answer_lost"] = lose
        if not lose:
            self.sock.sendto(response, destination)

    def transact(self, request, seq, destination):
        """Sends a request and waits for its response, resending the same bytes (same sequence
        number) every T3 up to N3 times (§7.6). Returns (response or None, tries)."""
        with self.lock:
            self.waiting[seq] = None
        tries = 0
        try:
            while tries <= self.n3:
                self.sock.sendto(request, destination)
                tries += 1
                deadline = time.monotonic() + self.t3
                with self.lock:
                    while self.waiting[seq] is None and time.monotonic() < deadline:
                        self.lock.wait(deadline - time.monotonic())
                    if self.waiting[seq] is not None:
                        return self.waiting[seq], tries
            return None, tries
        finally:
            with self.lock:
                del self.waiting[seq]

    def received(self, since):
        with self.lock:
            return [dict(m) for m in self.log[since:]]


def check_response(errors, response, seq, own_teid, msg_type):
    """What every response must satisfy (TS 29.274 §5.5 / §7.6): its type, the request's sequence
    number, and the TEID this peer gave the other side in its header."""
    if response is None:
        errors.append("no response")
        return
    if response.get("undecodable"):
        errors.append("undecodable response: " + response["undecodable"])
        return
    if response["type"] != msg_type:
        errors.append("response type %d, expected %d" % (response["type"], msg_type))
    if response["seq"] != seq:
        errors.append("response sequence %d, expected %d" % (response["seq"], seq))
    if response["teid"] != own_teid:
        errors.append("response header TEID 0x%x, expected 0x%x" % (response["teid"] or 0, own_teid))
    if not response["length_ok"]:
        errors.append("header length does not match the datagram")
    if cause_of(response) is None:
        errors.append("no Cause IE (TS 29.274 §8.4: every response carries one)")


def serve_commands(peer, commands, describe):
    """The JSON loop: announces the bound endpoint, then one result line per command line."""
    emit({"ready": True, "address": peer.address, "port": peer.port, **describe()})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            command = json.loads(line)
            name = command.get("cmd")
            if name == "quit":
                emit({"ok": True})
                return
            if name == "log":
                emit({"ok": True, "received": peer.received(int(command.get("since", 0)))})
                continue
            if name == "drop_answers":
                with peer.lock:
                    peer.drop_answers = int(command["count"])
                emit({"ok": True})
                continue
            if name not in commands:
                emit({"error": "unknown command %r" % name})
                continue
            emit(commands[name](command))
        except Exception as e:  # a bad command (or one the peer cannot carry out) is answered, never fatal
            emit({"error": "bad command %r: %s: %s" % (line, type(e).__name__, e)})


def emit(result):
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
