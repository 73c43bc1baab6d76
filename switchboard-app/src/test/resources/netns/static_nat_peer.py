#!/usr/bin/env python3
"""The peers of StaticNatNetnsIT, one role per run (standard library only).

  serve HOST UDP_PORT TCP_PORT LOG   the outside: answers each UDP datagram and TCP connection with
                                     "seen SRC", and appends SRC to LOG
  echo HOST PORT                     a real's UDP service behind the virtual server: echoes
  udp SRC DST PORT                   a real opening a UDP flow from SRC: prints the answer or "timeout"
  tcp SRC DST PORT                   a real opening a TCP connection from SRC: prints the answer or "timeout"
"""
import socket
import sys
import threading


def serve(host, udp_port, tcp_port, log):
    def note(src):
        with open(log, "a") as f:
            f.write(src + "\n")

    def udp():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.bind((host, udp_port))
        while True:
            data, peer = s.recvfrom(2048)
            note(peer[0])
            s.sendto(b"seen " + peer[0].encode(), peer)

    def tcp():
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((host, tcp_port))
        s.listen(8)
        while True:
            conn, peer = s.accept()
            note(peer[0])
            conn.sendall(b"seen " + peer[0].encode())
            conn.close()

    threading.Thread(target=udp, daemon=True).start()
    print("serving", flush=True)
    tcp()


def echo(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((host, port))
    print("echoing", flush=True)
    while True:
        data, peer = s.recvfrom(2048)
        s.sendto(data, peer)


def ask(kind, src, dst, port):
    family = socket.SOCK_DGRAM if kind == "udp" else socket.SOCK_STREAM
    s = socket.socket(socket.AF_INET, family)
    s.settimeout(2)
    s.bind((src, 0))
    try:
        if kind == "udp":
            s.sendto(b"hello", (dst, port))
            data, peer = s.recvfrom(2048)
            print(data.decode(), "from", peer[0])
        else:
            s.connect((dst, port))
            print(s.recv(2048).decode(), "from", dst)
    except (socket.timeout, OSError) as e:
        print("timeout", e)


if __name__ == "__main__":
    role = sys.argv[1]
    if role == "serve":
        serve(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif role == "echo":
        echo(sys.argv[2], int(sys.argv[3]))
    else:
        ask(role, sys.argv[2], sys.argv[3], int(sys.argv[4]))
