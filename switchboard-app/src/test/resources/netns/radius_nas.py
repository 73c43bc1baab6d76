#!/usr/bin/python3
"""A RADIUS NAS for the BGP/ECMP tests, written from RFC 2865 and RFC 2866 (standard library only).

    radius_nas.py auth VIP SECRET FIRST COUNT
        one Access-Request per subscriber i (User-Name sub-i, Calling-Station-Id csid-i), each from
        client address 10.10.0.(FIRST+i); prints {"sub-i": "served by NAME" | null}
    radius_nas.py load VIP SECRET FIRST COUNT SECONDS INTERVAL_MS
        Accounting-Request Interim-Updates (RFC 2866 §5.1: Acct-Status-Type 3) for every subscriber
        in turn, one every INTERVAL_MS, each retransmitted unchanged (same identifier and
        authenticator, RFC 5080 §2.2.1) after 300 ms, up to 3 times; prints the counts and, for
        every request not answered at once, when it was first sent (Unix ms)
    radius_nas.py rehash VIP SECRET FROM_A FROM_B COUNT DELAY_MS TAG
        per subscriber: an Access-Request from FROM_A, and DELAY_MS after its answer another one
        (the same Calling-Station-Id) from FROM_B, whose flow the router hashes to another node;
        prints how many of the second were served by the server of the first

Every answer's Response Authenticator is checked (RFC 2865 §3); a wrong one counts as not answered.
"""
import hashlib
import json
import os
import select
import socket
import struct
import sys
import time

ACCESS_REQUEST, ACCESS_ACCEPT, ACCOUNTING_REQUEST, ACCOUNTING_RESPONSE = 1, 2, 4, 5   # RFC 2865 §4, 2866 §4
USER_NAME, USER_PASSWORD, NAS_IP_ADDRESS, REPLY_MESSAGE, CALLING_STATION_ID = 1, 2, 4, 18, 31  # RFC 2865 §5
ACCT_STATUS_TYPE, ACCT_SESSION_ID = 40, 44   # RFC 2866 §5.1, §5.5
INTERIM_UPDATE = 3                           # RFC 2866 §5.1 (RFC 2869 §2.1)
PORT = {ACCESS_REQUEST: 1812, ACCOUNTING_REQUEST: 1813}
PASSWORD = b"testpw"
RETRY_S, TRIES = 0.3, 4


def attr(t, value):
    if isinstance(value, str):
        value = value.encode()
    return struct.pack("!BB", t, len(value) + 2) + value


def hide(password, secret, authenticator):
    """RFC 2865 §5.2: User-Password, padded to 16 octets, XORed with MD5(secret + previous)."""
    padded = password + b"\0" * (-len(password) % 16)
    out, previous = b"", authenticator
    for i in range(0, len(padded), 16):
        key = hashlib.md5(secret + previous).digest()
        block = bytes(a ^ b for a, b in zip(padded[i:i + 16], key))
        out += block
        previous = block
    return out


def request(code, ident, secret, sub, sess):
    csid = "csid-%d" % sub
    if code == ACCESS_REQUEST:
        authenticator = os.urandom(16)   # RFC 2865 §3: unpredictable
        attrs = (attr(USER_NAME, "sub-%d" % sub) + attr(USER_PASSWORD, hide(PASSWORD, secret, authenticator))
                 + attr(CALLING_STATION_ID, csid) + attr(NAS_IP_ADDRESS, socket.inet_aton("10.10.0.2")))
        return struct.pack("!BBH", code, ident, 20 + len(attrs)) + authenticator + attrs, authenticator
    attrs = (attr(USER_NAME, "sub-%d" % sub) + attr(CALLING_STATION_ID, csid)
             + attr(ACCT_STATUS_TYPE, struct.pack("!I", INTERIM_UPDATE)) + attr(ACCT_SESSION_ID, "s-%d-%d" % (sub, sess))
             + attr(NAS_IP_ADDRESS, socket.inet_aton("10.10.0.2")))
    header = struct.pack("!BBH", code, ident, 20 + len(attrs))
    # RFC 2866 §3: MD5(Code + Identifier + Length + 16 zero octets + attributes + secret).
    authenticator = hashlib.md5(header + b"\0" * 16 + attrs + secret).digest()
    return header + authenticator + attrs, authenticator


def answer_ok(data, ident, authenticator, secret):
    """RFC 2865 §3: Response Authenticator = MD5(Code + ID + Length + Request Authenticator + attributes + secret)."""
    if len(data) < 20 or data[1] != ident:
        return False
    return hashlib.md5(data[:4] + authenticator + data[20:] + secret).digest() == data[4:20]


def reply_message(data):
    i = 20
    while i + 2 <= len(data):
        t, n = data[i], data[i + 1]
        if n < 2:
            break
        if t == REPLY_MESSAGE:
            return data[i + 2:i + n].decode()
        i += n
    return None


def sock_from(address):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((address, 0))
    return s


def exchange(s, vip, code, ident, secret, sub, sess=0):
    """One request with its retransmissions; the answer's data, or None."""
    data, authenticator = request(code, ident, secret, sub, sess)
    for _ in range(TRIES):
        s.sendto(data, (vip, PORT[code]))
        deadline = time.monotonic() + RETRY_S
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([s], [], [], left)[0]:
                break
            answer, _ = s.recvfrom(4096)
            if answer_ok(answer, ident, authenticator, secret):
                return answer
    return None


def auth(vip, secret, first, count):
    served = {}
    for i in range(count):
        s = sock_from("10.10.0.%d" % (first + i))
        answer = exchange(s, vip, ACCESS_REQUEST, i & 0xFF, secret, i)
        served["sub-%d" % i] = reply_message(answer) if answer and answer[0] == ACCESS_ACCEPT else None
        s.close()
    print(json.dumps(served))


def load(vip, secret, first, count, seconds, interval_ms):
    socks = [sock_from("10.10.0.%d" % (first + i)) for i in range(count)]
    pending = {}      # (sub, ident) -> [data, authenticator, first_sent, tries, next_at]
    counts = {"sent": 0, "answered": 0, "answered_after_retransmission": 0, "lost": 0}
    not_at_once = []  # first-send times (Unix ms) of the requests answered late or never
    lost_at = []
    start = time.monotonic()
    wall = time.time() - start
    next_send, n = start, 0
    while True:
        now = time.monotonic()
        if now - start < seconds and now >= next_send:
            sub = n % count
            ident = (n // count) & 0xFF
            data, authenticator = request(ACCOUNTING_REQUEST, ident, secret, sub, n // count)
            socks[sub].sendto(data, (vip, PORT[ACCOUNTING_REQUEST]))
            pending[(sub, ident)] = [data, authenticator, now, 1, now + RETRY_S]
            counts["sent"] += 1
            n += 1
            next_send += interval_ms / 1000.0
        elif not pending and now - start >= seconds:
            break
        for key, p in list(pending.items()):
            if now >= p[4]:
                if p[3] >= TRIES:
                    counts["lost"] += 1
                    lost_at.append(int((wall + p[2]) * 1000))
                    del pending[key]
                    continue
                socks[key[0]].sendto(p[0], (vip, PORT[ACCOUNTING_REQUEST]))
                p[3] += 1
                p[4] = now + RETRY_S
        wait = max(0.0, min([next_send - now] + [p[4] - now for p in pending.values()] + [0.05]))
        for s in select.select(socks, [], [], wait)[0]:
            data, _ = s.recvfrom(4096)
            sub = socks.index(s)
            p = pending.get((sub, data[1]))
            if p is not None and data[0] == ACCOUNTING_RESPONSE and answer_ok(data, data[1], p[1], secret):
                counts["answered"] += 1
                if p[3] > 1:
                    counts["answered_after_retransmission"] += 1
                    not_at_once.append(int((wall + p[2]) * 1000))
                del pending[(sub, data[1])]
    counts["late_sent_at"] = not_at_once
    counts["lost_sent_at"] = lost_at
    print(json.dumps(counts))


def rehash(vip, secret, from_a, from_b, count, delay_ms, tag):
    a, b = sock_from(from_a), sock_from(from_b)
    same = answered = 0
    for i in range(count):
        sub = tag * 100000 + i
        first = exchange(a, vip, ACCESS_REQUEST, (2 * i) & 0xFF, secret, sub)
        time.sleep(delay_ms / 1000.0)
        second = exchange(b, vip, ACCESS_REQUEST, (2 * i + 1) & 0xFF, secret, sub)
        if first and second:
            answered += 1
            same += reply_message(first) == reply_message(second)
    print(json.dumps({"count": count, "answered": answered, "same_server": same}))


if __name__ == "__main__":
    mode, vip, secret = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    args = [int(x) if x.isdigit() else x for x in sys.argv[4:]]
    {"auth": auth, "load": load, "rehash": rehash}[mode](vip, secret, *args)
