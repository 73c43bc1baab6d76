#!/usr/bin/env bash
# The interface-awareness test network (IOS `access INTERFACE`): four namespaces, sb-SUFFIX-{a,b,c,d}.
#   a (client)  10.77.1.2 ── 10.77.1.1 ia ┐
#   b (client)  10.77.2.2 ── 10.77.2.1 ib ├ d (director; virtual address 10.77.9.1 on lo,
#   c (client)  10.77.3.2 ── 10.77.3.1 ic ┘    a UDP echo real on 127.0.0.1:7001)
# Each client reaches the virtual address only through its own veth pair, so which interface a
# datagram arrives on in d is the client that sent it. The director's interfaces have fixed names
# (ia, ib, ic): they live in d's namespace only.
# usage: access-topology.sh up|down SUFFIX
set -euo pipefail
cmd=$1 s=$2
d=sb-$s-d
if [ "$cmd" = down ]; then
  for n in a b c d; do ip netns del "sb-$s-$n" 2>/dev/null || true; done
  exit 0
fi
ip netns add $d; ip -n $d link set lo up
ip -n $d addr add 10.77.9.1/32 dev lo
for i in 1 2 3; do
  n=$(echo abc | cut -c$i)
  ns=sb-$s-$n
  ip netns add $ns; ip -n $ns link set lo up
  ip link add "x$s$n" netns $ns type veth peer name "i$n" netns $d
  ip -n $ns addr add 10.77.$i.2/24 dev "x$s$n"; ip -n $ns link set "x$s$n" up
  ip -n $ns route add 10.77.9.1/32 via 10.77.$i.1
  ip -n $d addr add 10.77.$i.1/24 dev "i$n"; ip -n $d link set "i$n" up
done
