#!/usr/bin/python3
"""A GTPv2-C requester written from TS 29.274's tables with scapy: an SGW on S5/S8, or an MME on S11.

    gtpv2_requester.py --interface s5s8|s11 --address 127.0.11.20 --peer 127.0.11.10 [--port 2123]

It sends Create Session Requests (Table 7.2.1-1) to --peer, then the session's Modify Bearer and
Delete Session Requests (Tables 7.2.7-1, 7.2.9.1-1) to the control-plane F-TEID the Create Session
Response named (Table 7.2.2-1: on S5/S8 the PGW's, instance 1; on S11 the SGW's, instance 0), under
the TEID that F-TEID carries, retransmitting per §7.6. It answers the peer's Create / Update /
Delete Bearer Requests (Tables 7.2.4-1, 7.2.16-1, 7.2.10.2-1), a retransmitted one with the same
response. Commands (one JSON object a line, see gtpv2_peer.py):

    {"cmd": "create", "imsi": "...", "ebi": 5}
    {"cmd": "modify", "imsi": "..."}                    add "relocate": true to name this node (Sender F-TEID)
    {"cmd": "adopt", "imsi": "...", "peer_teid": N, "peer_address": "...", "ebi": 5}
                                                        take over a session another node created
    {"cmd": "delete", "imsi": "..."}
    {"cmd": "sessions"}
    {"cmd": "drop_answers", "count": 1}   lose the next answers (as a network would)
    {"cmd": "log", "since": 0}            every datagram received since that index
    {"cmd": "quit"}
"""

import argparse
import threading

from scapy.contrib import gtp_v2 as g

import gtpv2_peer as p

INTERFACES = {
    # Table 7.2.1-1: the SGW's Sender F-TEID for Control Plane (instance 0, S5/S8 SGW GTP-C); in
    # the Bearer Context, the S5/S8-U SGW F-TEID (instance 2). Table 7.2.2-1: the PGW answers with
    # its control plane in instance 1 (S5/S8 PGW GTP-C) and no instance 0.
    "s5s8": {"own": p.S5S8_SGW_GTPC, "peer": (1, p.S5S8_PGW_GTPC), "absent": 0,
             "user": (2, p.S5S8_SGW_GTPU), "modified_user": (1, p.S5S8_SGW_GTPU)},
    # Table 7.2.1-1: the MME's Sender F-TEID (instance 0, S11 MME GTP-C) and the PGW S5/S8 Address for
    # Control Plane (instance 1). Table 7.2.2-1: the SGW answers with its S11 F-TEID as instance 0.
    "s11": {"own": p.S11_MME_GTPC, "peer": (0, p.S11S4_SGW_GTPC), "absent": None,
            "user": None, "modified_user": (0, p.S1U_ENODEB)},
}

# On S11: the PGW the MME selected, named in the Create Session Request (instance 1).
S11_PGW_ADDRESS = "127.0.11.99"


class Requester:

    def __init__(self, peer, interface, target, target_port, teid_base):
        self.peer = peer
        self.interface = interface
        self.table = INTERFACES[interface]
        self.target = (target, target_port)
        self.teid_base = teid_base
        self.sessions = {}       # IMSI -> session
        self.created = 0
        self.state = threading.Lock()

    def send(self, session, msg_type, teid, destination, ies, expected, own_teid):
        seq = self.peer.sequence()
        data = p.message(msg_type, teid, seq, ies)
        response, tries = self.peer.transact(data, seq, destination)
        errors = []
        p.check_response(errors, response, seq, own_teid, expected)
        return {"ok": not errors, "errors": errors, "seq": seq, "tries": tries,
                "sent_to": "%s:%d" % destination, "sent_teid": teid, "response": response}

    def create(self, command):
        imsi = command["imsi"]
        default_ebi = int(command.get("ebi", 5))
        with self.state:
            self.created += 1
            own_teid = self.teid_base + self.created
        ies = [g.IE_IMSI(IMSI=imsi), g.IE_MSISDN(digits="4917%08d" % self.created),
               g.IE_RAT(RAT_type=6),                                    # §8.17: EUTRAN
               g.IE_ServingNetwork(MCC="262", MNC="42"),
               p.fteid(0, self.table["own"], own_teid, self.peer.address)]
        if self.interface == "s11":
            ies.append(p.fteid(1, p.S5S8_PGW_GTPC, 0, S11_PGW_ADDRESS))
        bearer = [p.ebi(default_ebi)]
        if self.table["user"] is not None:
            instance, interface = self.table["user"]
            bearer.append(p.fteid(instance, interface, own_teid + 0x100000, self.peer.address))
        bearer.append(p.bearer_qos())
        ies += [g.IE_APN(APN="internet"), g.IE_SelectionMode(SelectionMode=0), g.IE_PDN_type(PDN_type=1),
                g.IE_PAA(PDN_type=1, ipv4="0.0.0.0"), g.IE_AMBR(AMBR_Uplink=100000, AMBR_Downlink=100000),
                # Table 7.2.1-2: Bearer Contexts to be created: EBI (M), Bearer Level QoS (M).
                p.bearer_context(bearer), g.IE_RecoveryRestart(restart_counter=1)]
        # §5.5.2: TEID 0 in the header, the peer has no context yet.
        result = self.send(None, p.CREATE_SESSION_REQUEST, 0, self.target, ies, p.CREATE_SESSION_RESPONSE, own_teid)
        result["own_teid"] = own_teid
        response = result["response"]
        if response is None or not p.accepted(p.cause_of(response)):
            return result
        instance, interface = self.table["peer"]
        control = p.find(response["ies"], p.IE_FTEID, instance)
        if control is None or control["interface"] != interface or control["ipv4"] is None:
            result["errors"].append("no control-plane F-TEID (instance %d, interface type %d) with IPv4 in the "
                                    "Create Session Response: %r" % (instance, interface, control))
        absent = self.table["absent"]
        if absent is not None and p.find(response["ies"], p.IE_FTEID, absent) is not None:
            # Not an error of the peer's (the table allows none), but reported for the test to see.
            result["instance_%d_present" % absent] = True
        if control is not None and control["ipv4"] is not None:
            with self.state:
                self.sessions[imsi] = {"imsi": imsi, "teid": own_teid, "peer_teid": control["teid"],
                                       "peer_address": control["ipv4"], "ebi": default_ebi,
                                       "bearers": [default_ebi], "next_ebi": default_ebi + 1}
        result["ok"] = not result["errors"]
        return result

    def session(self, imsi):
        with self.state:
            session = self.sessions.get(imsi)
        if session is None:
            raise KeyError("no session for IMSI %s" % imsi)
        return session

    def request_of(self, session, msg_type, ies, expected):
        """A request of the session: to the control-plane F-TEID the peer named, port 2123 (§4.4.2.1)."""
        return self.send(session, msg_type, session["peer_teid"], (session["peer_address"], p.GTP_C_PORT), ies,
                         expected, session["teid"])

    def adopt(self, command):
        """Takes over a session another node of this kind created (an SGW or MME relocation): the
        peer's control-plane TEID and address as that node knew them, and a TEID of this node's own."""
        with self.state:
            self.created += 1
            own_teid = self.teid_base + self.created
            ebi = int(command.get("ebi", 5))
            self.sessions[command["imsi"]] = {"imsi": command["imsi"], "teid": own_teid,
                                              "peer_teid": int(command["peer_teid"]),
                                              "peer_address": command["peer_address"], "ebi": ebi,
                                              "bearers": [ebi], "next_ebi": ebi + 1, "adopted": True}
        return {"ok": True, "own_teid": own_teid}

    def modify(self, command):
        session = self.session(command["imsi"])
        instance, interface = self.table["modified_user"]
        ies = []
        if command.get("relocate"):
            # Table 7.2.7-1: the Sender F-TEID for Control Plane (C) is sent on S11 for an MME
            # relocation and on S5/S8 for an SGW relocation: this node now holds the session.
            ies.append(p.fteid(0, self.table["own"], session["teid"], self.peer.address))
        # Table 7.2.7-1: Bearer Contexts to be modified: EBI (M) and the user-plane F-TEID that changed.
        ies.append(p.bearer_context([p.ebi(session["ebi"]),
                                     p.fteid(instance, interface, session["teid"] + 0x300000, self.peer.address)]))
        return self.request_of(session, p.MODIFY_BEARER_REQUEST, ies, p.MODIFY_BEARER_RESPONSE)

    def delete(self, command):
        session = self.session(command["imsi"])
        # Table 7.2.9.1-1: Linked EPS Bearer ID (C, instance 0): the PDN connection's default bearer.
        result = self.request_of(session, p.DELETE_SESSION_REQUEST, [p.ebi(session["ebi"])],
                                 p.DELETE_SESSION_RESPONSE)
        if result["response"] is not None and p.accepted(p.cause_of(result["response"])):
            with self.state:
                self.sessions.pop(session["imsi"], None)
        return result

    # -- answers to the peer's requests -------------------------------------------------------------

    def answer(self, msg, source):
        handlers = {
            p.CREATE_BEARER_REQUEST: self.create_bearer,
            p.UPDATE_BEARER_REQUEST: self.update_bearer,
            p.DELETE_BEARER_REQUEST: self.delete_bearer,
        }
        handler = handlers.get(msg["type"])
        return None if handler is None else handler(msg)

    def session_by_teid(self, msg, errors):
        with self.state:
            for session in self.sessions.values():
                if session["teid"] == msg["teid"]:
                    msg["imsi"] = session["imsi"]
                    return session
        errors.append("header TEID 0x%x names no session of this node" % (msg["teid"] or 0))
        return None

    def create_bearer(self, msg):
        errors = []
        msg["errors"] = errors
        session = self.session_by_teid(msg, errors)
        if session is None:
            return p.message(p.CREATE_BEARER_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        linked = p.find(msg["ies"], p.IE_EBI, 0)
        context = p.find(msg["ies"], p.IE_BEARER_CONTEXT)
        if linked is None or linked["ebi"] != session["ebi"]:
            errors.append("Linked EBI %r, expected %d" % (linked, session["ebi"]))
        if context is None or p.find(context["ies"], p.IE_EBI) is None:
            errors.append("no Bearer Context with an EBI")
        with self.state:
            assigned = session["next_ebi"]
            session["next_ebi"] += 1
            session["bearers"].append(assigned)
        msg["assigned_ebi"] = assigned
        # Table 7.2.4-1: Cause (M); Bearer Contexts (M, Table 7.2.4-2): EBI (M), Cause (M), on S5/S8
        # the S5/S8-U SGW F-TEID (instance 2), on S11 the S1-U eNodeB F-TEID (instance 0).
        instance, interface = (2, p.S5S8_SGW_GTPU) if self.interface == "s5s8" else (0, p.S1U_ENODEB)
        ies = [p.cause(p.REQUEST_ACCEPTED),
               p.bearer_context([p.ebi(assigned), p.cause(p.REQUEST_ACCEPTED),
                                 p.fteid(instance, interface, session["teid"] + 0x400000 + assigned,
                                         self.peer.address)])]
        return p.message(p.CREATE_BEARER_RESPONSE, session["peer_teid"], msg["seq"], ies)

    def update_bearer(self, msg):
        errors = []
        msg["errors"] = errors
        session = self.session_by_teid(msg, errors)
        if session is None:
            return p.message(p.UPDATE_BEARER_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        context = p.find(msg["ies"], p.IE_BEARER_CONTEXT)
        bearer = p.find(context["ies"], p.IE_EBI) if context else None
        known = bearer is not None and bearer["ebi"] in session["bearers"]
        if not known:
            errors.append("Update Bearer Request for bearer %r, not one of %r" % (bearer, session["bearers"]))
        # Table 7.2.16-1: Cause (M); Bearer Contexts (M): EBI (M), Cause (M).
        outcome = p.REQUEST_ACCEPTED if known else p.CONTEXT_NOT_FOUND
        ies = [p.cause(outcome)]
        if bearer is not None:
            ies.append(p.bearer_context([p.ebi(bearer["ebi"]), p.cause(outcome)]))
        return p.message(p.UPDATE_BEARER_RESPONSE, session["peer_teid"], msg["seq"], ies)

    def delete_bearer(self, msg):
        errors = []
        msg["errors"] = errors
        session = self.session_by_teid(msg, errors)
        if session is None:
            return p.message(p.DELETE_BEARER_RESPONSE, 0, msg["seq"], [p.cause(p.CONTEXT_NOT_FOUND)])
        # Table 7.2.9.2-1: EPS Bearer IDs (instance 1) of dedicated bearers, or the Linked EBI
        # (instance 0) for the whole PDN connection.
        linked = p.find(msg["ies"], p.IE_EBI, 0)
        bearers = [ie["ebi"] for ie in p.find_all(msg["ies"], p.IE_EBI, 1)]
        if linked is not None:
            with self.state:
                self.sessions.pop(session["imsi"], None)
            # Table 7.2.10.2-1: Cause (M), Linked EBI (C).
            return p.message(p.DELETE_BEARER_RESPONSE, session["peer_teid"], msg["seq"],
                             [p.cause(p.REQUEST_ACCEPTED), p.ebi(linked["ebi"])])
        if not bearers:
            errors.append("Delete Bearer Request with neither Linked EBI nor EPS Bearer IDs")
        contexts = []
        with self.state:
            for bearer in bearers:
                known = bearer in session["bearers"] and bearer != session["ebi"]
                if known:
                    session["bearers"].remove(bearer)
                else:
                    errors.append("Delete Bearer Request for bearer %d, not a dedicated one of %r"
                                  % (bearer, session["bearers"]))
                # Table 7.2.10.2-1: Bearer Contexts (C): EBI (M), Cause (M).
                contexts.append(p.bearer_context([p.ebi(bearer),
                                                  p.cause(p.REQUEST_ACCEPTED if known else p.CONTEXT_NOT_FOUND)]))
        return p.message(p.DELETE_BEARER_RESPONSE, session["peer_teid"], msg["seq"],
                         [p.cause(p.REQUEST_ACCEPTED)] + contexts)

    def list_sessions(self, command):
        with self.state:
            return {"ok": True, "sessions": [dict(s) for s in self.sessions.values()]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--interface", choices=sorted(INTERFACES), required=True)
    parser.add_argument("--address", required=True)
    parser.add_argument("--port", type=int, default=p.GTP_C_PORT)
    parser.add_argument("--peer", required=True, help="where Create Session Requests go")
    parser.add_argument("--peer-port", type=int, default=p.GTP_C_PORT)
    parser.add_argument("--teid-base", type=lambda s: int(s, 0), default=0x20000000)
    parser.add_argument("--t3", type=float, default=1.0, help="T3-RESPONSE, seconds (TS 29.274 §7.6)")
    parser.add_argument("--n3", type=int, default=2, help="N3-REQUESTS: retransmissions (TS 29.274 §7.6)")
    parser.add_argument("--first-seq", type=lambda s: int(s, 0), default=0x100000)
    args = parser.parse_args()
    peer = p.Peer(args.address, args.port, args.t3, args.n3, args.first_seq)
    requester = Requester(peer, args.interface, args.peer, args.peer_port, args.teid_base)
    peer.start(requester.answer)
    p.serve_commands(peer, {
        "create": requester.create,
        "modify": requester.modify,
        "adopt": requester.adopt,
        "delete": requester.delete,
        "sessions": requester.list_sessions,
    }, lambda: {"interface": args.interface, "role": "sgw" if args.interface == "s5s8" else "mme"})


if __name__ == "__main__":
    main()
