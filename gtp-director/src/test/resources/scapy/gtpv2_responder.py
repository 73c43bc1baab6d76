#!/usr/bin/python3
"""A GTPv2-C responder written from TS 29.274's tables with scapy: a PGW on S5/S8, or an SGW on S11.

    gtpv2_responder.py --interface s5s8|s11 --address 127.0.11.2 [--port 2123] [--teid-base N]

It answers Create Session, Modify Bearer and Delete Session Requests as Tables 7.2.2-1, 7.2.8-1 and
7.2.10.1-1 prescribe for its interface, can refuse creates with a cause of Table 8.4-1 (such as 73,
no resources available), and, on command, initiates Create / Update / Delete Bearer Requests
(Tables 7.2.3-1, 7.2.15-1, 7.2.9.2-1) toward the control-plane F-TEID its peer named in the Create
Session Request. Its own requests are retransmitted per §7.6; a retransmitted request gets the
response again. Commands (one JSON object a line, see gtpv2_peer.py):

    {"cmd": "refuse", "count": 1, "cause": 73}   the next creates are refused with that cause
    {"cmd": "create_bearer", "imsi": "..."}       a dedicated bearer for the IMSI's session
    {"cmd": "update_bearer", "imsi": "...", "ebi": 6}
    {"cmd": "delete_bearer", "imsi": "...", "ebi": 6}      a dedicated bearer
    {"cmd": "delete_bearer", "imsi": "...", "linked": true}   the whole PDN connection
    {"cmd": "sender_fteid", "on": true}           S5/S8: send the Sender F-TEID (instance 0) as well
    {"cmd": "sessions"}                           the sessions it holds
    {"cmd": "drop_answers", "count": 1}           lose the next answers (as a network would)
    {"cmd": "log", "since": 0}                    every datagram received since that index
    {"cmd": "quit"}
"""

import argparse
import threading

from scapy.contrib import gtp_v2 as g

import gtpv2_peer as p

# Per interface: the interface type the requester's sender F-TEID must carry (Table 7.2.1-1,
# instance 0), and how this node names its own control plane in the Create Session Response.
INTERFACES = {
    # TS 29.274 Table 7.2.2-1: on S5/S8 the PGW names its control plane only in the "PGW S5/S8/S2a/S2b
    # F-TEID for PMIP based interface or for GTP based Control Plane interface" (instance 1); the
    # Sender F-TEID for Control Plane (instance 0) "is not needed because its content would be
    # identical", so it is not sent.
    "s5s8": {"requester": p.S5S8_SGW_GTPC, "own": (1, p.S5S8_PGW_GTPC), "user": (2, p.S5S8_PGW_GTPU)},
    # TS 29.274 Table 7.2.2-1: on S11 the SGW's own F-TEID is the sender F-TEID (instance 0); the PGW's
    # S5/S8 F-TEID (instance 1) is information for the MME, not an endpoint of this node.
    "s11": {"requester": p.S11_MME_GTPC, "own": (0, p.S11S4_SGW_GTPC), "user": (0, p.S1U_SGW)},
}

# On S11: the PGW behind this SGW, named in instance 1 of its Create Session Responses (never sent to).
S11_PGW_ADDRESS = "127.0.11.99"
S11_PGW_TEID_BASE = 0x7700_0000


class Responder:

    def __init__(self, peer, interface, teid_base):
        self.peer = peer
        self.interface = interface
        self.table = INTERFACES[interface]
        self.teid_base = teid_base
        self.sessions = {}       # own TEID-C -> session
        self.created = 0
        self.refusals = 0
        self.refusal_cause = p.NO_RESOURCES_AVAILABLE
        self.sender_fteid_too = False
        self.state = threading.Lock()

    # -- answers ------------------------------------------------------------------------------------

    def answer(self, msg, source):
        handlers = {
            p.CREATE_SESSION_REQUEST: self.create_session,
            p.MODIFY_BEARER_REQUEST: self.modify_bearer,
            p.DELETE_SESSION_REQUEST: self.delete_session,
        }
        handler = handlers.get(msg["type"])
        return None if handler is None else handler(msg)

    def create_session(self, msg):
        errors = []
        msg["errors"] = errors
        # TS 29.274 §5.5.2: a Create Session Request for a new PDN connection carries TEID 0.
        if msg["teid"] != 0:
            errors.append("Create Session Request with header TEID 0x%x" % msg["teid"])
        sender = p.find(msg["ies"], p.IE_FTEID, 0)
        imsi = p.find(msg["ies"], p.IE_IMSI)
        context = p.find(msg["ies"], p.IE_BEARER_CONTEXT)
        linked = p.find(context["ies"], p.IE_EBI) if context else None
        # Table 7.2.1-1: Sender F-TEID for Control Plane (M), instance 0, of the requester's interface.
        if sender is None or sender["interface"] != self.table["requester"] or sender["ipv4"] is None:
            errors.append("no sender F-TEID (instance 0, interface type %d) with IPv4: %r"
                          % (self.table["requester"], sender))
            return p.message(p.CREATE_SESSION_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        if imsi is None or linked is None:
            errors.append("no IMSI or no Bearer Context with an EBI")
        with self.state:
            refuse = self.refusals > 0
            if refuse:
                self.refusals -= 1
            else:
                self.created += 1
                own_teid = self.teid_base + self.created
        if refuse:
            # Table 7.2.2-1: a rejection carries the Cause; no F-TEID, PAA or bearer is created.
            msg["refused"] = self.refusal_cause
            return p.message(p.CREATE_SESSION_RESPONSE, sender["teid"], msg["seq"], [p.cause(self.refusal_cause)])
        default_ebi = linked["ebi"] if linked else 5
        session = {"imsi": imsi["imsi"] if imsi else None, "teid": own_teid, "peer_teid": sender["teid"],
                   "peer_address": sender["ipv4"], "ebi": default_ebi, "bearers": [default_ebi],
                   "next_ebi": default_ebi + 1}
        with self.state:
            self.sessions[own_teid] = session
        instance, interface = self.table["own"]
        user_instance, user_interface = self.table["user"]
        ies = [p.cause(p.REQUEST_ACCEPTED)]
        if self.sender_fteid_too and self.interface == "s5s8":
            # Table 7.2.2-1 calls the Sender F-TEID "not needed" on S5/S8, not forbidden: some PGWs send
            # it too, with the same content as instance 1.
            ies.append(p.fteid(0, interface, own_teid, self.peer.address))
        ies.append(p.fteid(instance, interface, own_teid, self.peer.address))
        if self.interface == "s11":
            # Table 7.2.2-1: "PGW S5/S8/S2a/S2b F-TEID" (instance 1), on S11 the PGW's, as the SGW got it.
            ies.append(p.fteid(1, p.S5S8_PGW_GTPC, S11_PGW_TEID_BASE + self.created, S11_PGW_ADDRESS))
        ies += [
            g.IE_PAA(PDN_type=1, ipv4="10.45.%d.%d" % (self.created // 250, self.created % 250 + 1)),
            g.IE_APN_Restriction(APN_Restriction=0),
            g.IE_AMBR(AMBR_Uplink=100000, AMBR_Downlink=100000),
            # Table 7.2.2-2: Bearer Context created: EBI (M), Cause (M), the node's user-plane F-TEID.
            p.bearer_context([p.ebi(default_ebi), p.cause(p.REQUEST_ACCEPTED),
                              p.fteid(user_instance, user_interface, own_teid + 0x100000, self.peer.address),
                              p.bearer_qos(), g.IE_ChargingID(ChargingID=own_teid & 0xFFFF)]),
            g.IE_RecoveryRestart(restart_counter=1),
        ]
        msg["session"] = own_teid
        return p.message(p.CREATE_SESSION_RESPONSE, sender["teid"], msg["seq"], ies)

    def session_of(self, msg, errors):
        with self.state:
            session = self.sessions.get(msg["teid"])
        if session is None:
            errors.append("header TEID 0x%x names no session of this node" % (msg["teid"] or 0))
        return session

    def modify_bearer(self, msg):
        errors = []
        msg["errors"] = errors
        session = self.session_of(msg, errors)
        if session is None:
            # TS 29.274 §5.5.2: a response to a request naming no context carries TEID 0; cause 64.
            return p.message(p.MODIFY_BEARER_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        sender = p.find(msg["ies"], p.IE_FTEID, 0)
        if sender is not None:
            # Table 7.2.7-1: a Sender F-TEID in a Modify Bearer Request: the peer relocated.
            with self.state:
                session["peer_teid"], session["peer_address"] = sender["teid"], sender["ipv4"]
        context = p.find(msg["ies"], p.IE_BEARER_CONTEXT)
        bearer = p.find(context["ies"], p.IE_EBI) if context else None
        # Table 7.2.8-1: Cause (M), Bearer Contexts modified: EBI (M), Cause (M).
        ies = [p.cause(p.REQUEST_ACCEPTED)]
        if bearer is not None:
            ies.append(p.bearer_context([p.ebi(bearer["ebi"]), p.cause(p.REQUEST_ACCEPTED)]))
        return p.message(p.MODIFY_BEARER_RESPONSE, session["peer_teid"], msg["seq"], ies)

    def delete_session(self, msg):
        errors = []
        msg["errors"] = errors
        session = self.session_of(msg, errors)
        if session is None:
            return p.message(p.DELETE_SESSION_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        # Table 7.2.9.1-1: the Linked EPS Bearer ID names the PDN connection's default bearer.
        linked = p.find(msg["ies"], p.IE_EBI, 0)
        if linked is None or linked["ebi"] != session["ebi"]:
            errors.append("Linked EBI %r, expected %d" % (linked, session["ebi"]))
        with self.state:
            self.sessions.pop(session["teid"], None)
        # Table 7.2.10.1-1: Cause (M).
        return p.message(p.DELETE_SESSION_RESPONSE, session["peer_teid"], msg["seq"], [p.cause(p.REQUEST_ACCEPTED)])

    # -- requests of its own ------------------------------------------------------------------------

    def by_imsi(self, imsi):
        with self.state:
            for session in self.sessions.values():
                if session["imsi"] == imsi:
                    return session
        raise KeyError("no session for IMSI %s" % imsi)

    def request(self, session, msg_type, ies, expected_response):
        """Sends a request of the session to the control-plane F-TEID the peer named (§4.4.2.1: port
        2123) under the peer's TEID; checks and reports the response."""
        seq = self.peer.sequence()
        data = p.message(msg_type, session["peer_teid"], seq, ies)
        response, tries = self.peer.transact(data, seq, (session["peer_address"], p.GTP_C_PORT))
        errors = []
        p.check_response(errors, response, seq, session["teid"], expected_response)
        return {"ok": not errors, "errors": errors, "seq": seq, "tries": tries, "sent_to": "%s:%d" % (
            session["peer_address"], p.GTP_C_PORT), "sent_teid": session["peer_teid"], "response": response}

    def create_bearer(self, command):
        session = self.by_imsi(command["imsi"])
        # Table 7.2.3-1: Linked EPS Bearer ID (M); Bearer Contexts (M, Table 7.2.3-2): EBI (M, 0: the
        # MME assigns it), TFT (M), the PGW's user-plane F-TEID (S5/S8-U PGW, instance 1), Bearer
        # Level QoS (M), Charging Id.
        instance, interface = (1, p.S5S8_PGW_GTPU) if self.interface == "s5s8" else (0, p.S1U_SGW)
        ies = [p.ebi(session["ebi"]),
               p.bearer_context([p.ebi(0), p.tft(), p.fteid(instance, interface, session["teid"] + 0x200000,
                                                             self.peer.address),
                                 p.bearer_qos(qci=1, priority=2), g.IE_ChargingID(ChargingID=0x42)])]
        result = self.request(session, p.CREATE_BEARER_REQUEST, ies, p.CREATE_BEARER_RESPONSE)
        response = result["response"]
        if response is not None and p.accepted(p.cause_of(response)):
            # Table 7.2.4-1: Bearer Contexts (M): the EBI assigned, its Cause.
            context = p.find(response["ies"], p.IE_BEARER_CONTEXT)
            bearer = p.find(context["ies"], p.IE_EBI) if context else None
            if bearer is None:
                result["errors"].append("no Bearer Context with an EBI in the Create Bearer Response")
                result["ok"] = False
            else:
                with self.state:
                    session["bearers"].append(bearer["ebi"])
                result["ebi"] = bearer["ebi"]
        return result

    def update_bearer(self, command):
        session = self.by_imsi(command["imsi"])
        # Table 7.2.15-1: Bearer Contexts (M): EBI (M), Bearer Level QoS (C); APN-AMBR (M).
        ies = [p.bearer_context([p.ebi(int(command["ebi"])), p.bearer_qos(qci=1, priority=3)]),
               g.IE_AMBR(AMBR_Uplink=200000, AMBR_Downlink=200000)]
        return self.request(session, p.UPDATE_BEARER_REQUEST, ies, p.UPDATE_BEARER_RESPONSE)

    def delete_bearer(self, command):
        session = self.by_imsi(command["imsi"])
        if command.get("linked"):
            # Table 7.2.9.2-1: the Linked EBI (C, instance 0) deletes the whole PDN connection.
            ies, bearer = [p.ebi(session["ebi"])], None
        else:
            # Table 7.2.9.2-1: EPS Bearer IDs (C, instance 1) for dedicated bearers.
            bearer = int(command["ebi"])
            ies = [p.ebi(bearer, instance=1)]
        result = self.request(session, p.DELETE_BEARER_REQUEST, ies, p.DELETE_BEARER_RESPONSE)
        if result["response"] is not None and p.accepted(p.cause_of(result["response"])):
            with self.state:
                if bearer is None:
                    self.sessions.pop(session["teid"], None)
                elif bearer in session["bearers"]:
                    session["bearers"].remove(bearer)
        return result

    def refuse(self, command):
        with self.state:
            self.refusals = int(command.get("count", 1))
            self.refusal_cause = int(command.get("cause", p.NO_RESOURCES_AVAILABLE))
        return {"ok": True}

    def sender_fteid(self, command):
        with self.state:
            self.sender_fteid_too = bool(command["on"])
        return {"ok": True}

    def list_sessions(self, command):
        with self.state:
            return {"ok": True, "sessions": [dict(s) for s in self.sessions.values()]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interface", choices=sorted(INTERFACES), required=True)
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, default=p.GTP_C_PORT)
    parser.add_argument("--teid-base", type=lambda s: int(s, 0), default=0x10000000)
    parser.add_argument("--t3", type=float, default=1.0, help="T3-RESPONSE, seconds (TS 29.274 §7.6)")
    parser.add_argument("--n3", type=int, default=2, help="N3-REQUESTS: retransmissions (TS 29.274 §7.6)")
    parser.add_argument("--first-seq", type=lambda s: int(s, 0), default=0x700000)
    args = parser.parse_args()
    peer = p.Peer(args.address, args.port, args.t3, args.n3, args.first_seq)
    responder = Responder(peer, args.interface, args.teid_base)
    peer.start(responder.answer)
    p.serve_commands(peer, {
        "refuse": responder.refuse,
        "create_bearer": responder.create_bearer,
        "update_bearer": responder.update_bearer,
        "delete_bearer": responder.delete_bearer,
        "sessions": responder.list_sessions,
        "sender_fteid": responder.sender_fteid,
    }, lambda: {"interface": args.interface, "role": "pgw" if args.interface == "s5s8" else "sgw"})


if __name__ == "__main__":
    main()
