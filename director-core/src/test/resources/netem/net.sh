#!/usr/bin/env bash
# The bad network of the netns impairment tests (issue 22 point 3), built in the kernel with nftables
# because this kernel has no sch_netem (docs/overload.md, "Bad networks"). Two namespaces beside the
# test's own (the director's): c (the client side, MME or NAS) on 10.96.N.2 and r (the real side, PGW
# or AAA) on 10.97.N.2 and .3, each on a veth pair whose other end is in the test's namespace
# (10.96.N.1, 10.97.N.1). "impair" puts on the egress of all four veth ends, for UDP:
#   loss:        numgen random mod 1000 < L  -> drop                  (counter lost)
#   duplication: numgen random mod 1000 < D  -> dup to the same device (counter duplicated)
#   reordering:  numgen random mod 1000 < R  -> meta priority 1:20     (counter delayed)
# Class 1:20 of an HTB qdisc is a slow lane: a ping of 60 000 bytes every 120 ms to an address that
# nobody on the link answers (a static neighbour with a MAC no interface has) keeps it busy at 4 Mbit/s,
# so a datagram put there waits 0..~100 ms behind the fragments while the next ones overtake it in
# 1:10. A copy made by dup goes through the chain again (it can be lost or delayed in turn). "probe"
# sends 1000 numbered datagrams from c to the test's namespace and prints what arrived (received,
# duplicates, late: arrived after a higher number), to show the construction reorders for real.
# Used by gtp-director's GtpNetnsImpairmentIT and radius-director's RadiusNetnsImpairmentIT.
# Usage: net.sh up S N | impair S N L D R | probe S N | reset S | counters S | down S
set -euo pipefail
cmd=$1 sfx=$2
c="sbn-$sfx-c" r="sbn-$sfx-r"
ends() { # namespace-option device fake-neighbour, for the four egresses
  echo "- sbnc$sfx 10.96.$1.250"
  echo "$c eth0 10.96.$1.250"
  echo "- sbnr$sfx 10.97.$1.250"
  echo "$r eth0 10.97.$1.250"
}
in_ns() { local n=$1; shift; if [ "$n" = - ]; then "$@"; else ip netns exec "$n" "$@"; fi; }
case "$cmd" in
  up)
    net=$3
    ip netns add "$c"
    ip netns add "$r"
    ip link add "sbnc$sfx" type veth peer name eth0 netns "$c"
    ip link add "sbnr$sfx" type veth peer name eth0 netns "$r"
    ip addr add "10.96.$net.1/24" dev "sbnc$sfx"
    ip addr add "10.97.$net.1/24" dev "sbnr$sfx"
    ip link set "sbnc$sfx" up
    ip link set "sbnr$sfx" up
    ip -n "$c" addr add "10.96.$net.2/24" dev eth0
    ip -n "$r" addr add "10.97.$net.2/24" dev eth0
    ip -n "$r" addr add "10.97.$net.3/24" dev eth0
    for n in "$c" "$r"; do
      ip -n "$n" link set lo up
      ip -n "$n" link set eth0 up
    done
    ip -n "$c" route add default via "10.96.$net.1"
    ip -n "$r" route add default via "10.97.$net.1"
    ;;
  impair)
    net=$3 loss=$4 dup=$5 reorder=$6
    ends "$net" | while read -r n dev fake; do
      in_ns "$n" ip neigh replace "$fake" lladdr 02:00:5e:00:53:99 dev "$dev" nud permanent
      in_ns "$n" tc qdisc replace dev "$dev" root handle 1: htb default 10
      in_ns "$n" tc class add dev "$dev" parent 1: classid 1:10 htb rate 1gbit
      in_ns "$n" tc class add dev "$dev" parent 1: classid 1:20 htb rate 4mbit ceil 4mbit
      in_ns "$n" nft -f - <<NFT
table netdev sbn_$dev {
  counter lost {}
  counter duplicated {}
  counter delayed {}
  counter passed {}
  chain egress {
    type filter hook egress device "$dev" priority 0;
    ip daddr $fake meta priority set 1:20 accept
    meta l4proto != udp accept
    numgen random mod 1000 < $loss counter name lost drop
    counter name passed
    numgen random mod 1000 < $dup counter name duplicated dup to "$dev"
    numgen random mod 1000 < $reorder counter name delayed meta priority set 1:20
  }
}
NFT
      # Not through in_ns: a function in the background is a subshell, and its pid is not ping's
      # (nohup and ip netns exec exec what they run, so $! is ping and "down" stops it).
      if [ "$n" = - ]; then
        nohup ping -q -s 60000 -i 0.12 "$fake" >/dev/null 2>&1 &
      else
        nohup ip netns exec "$n" ping -q -s 60000 -i 0.12 "$fake" >/dev/null 2>&1 &
      fi
      echo $! >>"/tmp/sbn-$sfx.pids"
    done
    ;;
  probe)
    net=$3 ready="/tmp/sbn-$sfx.probe"
    rm -f "$ready" && mkfifo "$ready"
    # The receiver binds a port of its own and names it through the fifo: no race for the port, no sleep.
    python3 - "10.96.$net.1" "$ready" <<'PY' &
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind((sys.argv[1], 0)); s.settimeout(2)
with open(sys.argv[2], 'w') as f:
    f.write("%d\n" % s.getsockname()[1])
seen = []
try:
    while True:
        seen.append(struct.unpack('!I', s.recv(2048)[:4])[0])
except socket.timeout:
    pass
late, high = 0, -1
for n in seen:
    late += n < high
    high = max(high, n)
print("probe sent 1000 received %d duplicates %d late %d" % (len(seen), len(seen) - len(set(seen)), late))
PY
    receiver=$!
    read -r port <"$ready"
    rm -f "$ready"
    ip netns exec "$c" python3 - "10.96.$net.1" "$port" <<'PY'
import socket, struct, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for n in range(1000):
    s.sendto(struct.pack('!I', n) + bytes(150), (sys.argv[1], int(sys.argv[2])))
    time.sleep(0.002)  # 500 datagrams a second, about the rate of the tests' signalling bursts
PY
    wait "$receiver"
    ;;
  reset)
    # Zero the counters (after the probe, before the test's own traffic).
    ends 0 | while read -r n dev fake; do in_ns "$n" nft reset counters table netdev "sbn_$dev" >/dev/null; done
    ;;
  counters)
    # One line per egress: name lost duplicated delayed passed (packets).
    ends 0 | while read -r n dev fake; do
      line="$( [ "$n" = - ] && echo "director->${dev:3:1}" || echo "${n##*-}->director" )"
      for k in lost duplicated delayed passed; do
        line="$line $(in_ns "$n" nft list counter netdev "sbn_$dev" $k | awk '/packets/ {print $2}')"
      done
      echo "$line"
    done
    ;;
  down)
    if [ -f "/tmp/sbn-$sfx.pids" ]; then
      while read -r p; do kill "$p" 2>/dev/null || true; done <"/tmp/sbn-$sfx.pids"
      rm -f "/tmp/sbn-$sfx.pids"
    fi
    # The tables on the ends in the test's namespace outlive their devices.
    nft delete table netdev "sbn_sbnc$sfx" 2>/dev/null || true
    nft delete table netdev "sbn_sbnr$sfx" 2>/dev/null || true
    ip link del "sbnc$sfx" 2>/dev/null || true
    ip link del "sbnr$sfx" 2>/dev/null || true
    ip netns del "$c" 2>/dev/null || true
    ip netns del "$r" 2>/dev/null || true
    ;;
  *) echo "usage: net.sh up S N | impair S N L D R | probe S N | reset S | counters S | down S" >&2; exit 2 ;;
esac
