#!/usr/bin/env bash
# The static-nat test network (docs/transparent.md, "Static NAT"): three namespaces, sb-SUFFIX-{c,d,r}.
#   c (the outside)  10.9.1.2 ── 10.9.1.1  d (director, the reals' gateway; virtual address 10.9.0.10 on lo)
#   d                10.9.2.1 ── 10.9.2.2, 10.9.2.3  r (two reals; default route via the director)
# The outside knows only the virtual address (no route to the reals' subnet), as a site whose reals
# have private addresses: what a real opens reaches it only translated, and is answered only so.
# usage: static-nat-topology.sh up|down SUFFIX
set -euo pipefail
cmd=$1 s=$2
c=sb-$s-c d=sb-$s-d r=sb-$s-r
if [ "$cmd" = down ]; then
  # Deleting a namespace deletes its interfaces and its nftables tables with it.
  for n in $c $d $r; do ip netns del "$n" 2>/dev/null || true; done
  exit 0
fi
for n in $c $d $r; do ip netns add "$n"; ip -n "$n" link set lo up; done
ip link add "s$s-c" netns $c type veth peer name "s$s-dc" netns $d
ip link add "s$s-r" netns $r type veth peer name "s$s-dr" netns $d
ip -n $c addr add 10.9.1.2/24 dev "s$s-c"; ip -n $c link set "s$s-c" up
ip -n $c route add 10.9.0.10/32 via 10.9.1.1
ip -n $d addr add 10.9.1.1/24 dev "s$s-dc"; ip -n $d link set "s$s-dc" up
ip -n $d addr add 10.9.2.1/24 dev "s$s-dr"; ip -n $d link set "s$s-dr" up
ip -n $d addr add 10.9.0.10/32 dev lo
ip netns exec $d sysctl -q -w net.ipv4.ip_forward=1
ip -n $r addr add 10.9.2.2/24 dev "s$s-r"; ip -n $r addr add 10.9.2.3/24 dev "s$s-r"; ip -n $r link set "s$s-r" up
ip -n $r route add default via 10.9.2.1
