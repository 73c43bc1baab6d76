#!/usr/bin/env bash
# The client-nat test network (docs/transparent.md): three namespaces, sb-SUFFIX-{c,d,r}.
#   c (client, a NAS)  10.9.1.2 ── 10.9.1.1  d (director; virtual address 10.9.0.10 on lo)
#   d                  10.9.2.1 ── 10.9.2.2  r (real: FreeRADIUS; default route via the director)
# In d, the host routing of docs/transparent.md: what a socket bound with IP_TRANSPARENT would
# receive is marked (nft `socket transparent`) and routed to the local host by a policy rule.
# usage: transparent-topology.sh up|down SUFFIX
set -euo pipefail
cmd=$1 s=$2
c=sb-$s-c d=sb-$s-d r=sb-$s-r
if [ "$cmd" = down ]; then
  for n in $c $d $r; do ip netns del "$n" 2>/dev/null || true; done
  exit 0
fi
for n in $c $d $r; do ip netns add "$n"; ip -n "$n" link set lo up; done
ip link add "t$s-c" netns $c type veth peer name "t$s-dc" netns $d
ip link add "t$s-r" netns $r type veth peer name "t$s-dr" netns $d
ip -n $c addr add 10.9.1.2/24 dev "t$s-c"; ip -n $c link set "t$s-c" up
ip -n $c route add default via 10.9.1.1
ip -n $d addr add 10.9.1.1/24 dev "t$s-dc"; ip -n $d link set "t$s-dc" up
ip -n $d addr add 10.9.2.1/24 dev "t$s-dr"; ip -n $d link set "t$s-dr" up
ip -n $d addr add 10.9.0.10/32 dev lo
ip -n $r addr add 10.9.2.2/24 dev "t$s-r"; ip -n $r link set "t$s-r" up
ip -n $r route add default via 10.9.2.1
# docs/transparent.md, "The director host":
ip netns exec $d nft -f - <<NFT
table ip switchboard {
  chain prerouting {
    type filter hook prerouting priority mangle; policy accept;
    socket transparent 1 meta mark set 0x1 accept
  }
}
NFT
ip -n $d rule add fwmark 0x1 lookup 100
ip -n $d route add local 0.0.0.0/0 dev lo table 100
