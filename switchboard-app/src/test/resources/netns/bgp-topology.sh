#!/usr/bin/env bash
# The BGP/ECMP test network (BgpEcmpNetnsIT, benchmarks/bgp/run.sh): a router in front of three
# director nodes that each announce the virtual address by BGP, a client behind the router, and the
# reals on a LAN behind the directors (which the directors' cluster also uses).
#
#   client sb-X-c          router sb-X-rt               directors sb-X-d1..d3         reals sb-X-r
#   c0 10.10.0.2, .10-.41 -- c 10.10.0.1
#                            d1 10.20.1.1 ------------- rt0 10.20.1.2  be 10.30.0.11 -- r1 \
#                            d2 10.20.2.1 ------------- rt0 10.20.2.2  be 10.30.0.12 -- r2  br0 10.30.0.2, .3
#                            d3 10.20.3.1 ------------- rt0 10.20.3.2  be 10.30.0.13 -- r3 /
#   each director holds the virtual address 10.99.0.1/32 on its loopback.
#
# The router hashes flows over the equal-cost paths by source and destination address (the kernel's
# default, fib_multipath_hash_policy 0), so the client's addresses spread over the nodes.
#
# Usage: bgp-topology.sh up|down SUFFIX
set -euo pipefail
action=$1 sfx=$2
C=sb-$sfx-c RT=sb-$sfx-rt R=sb-$sfx-r
DS="sb-$sfx-d1 sb-$sfx-d2 sb-$sfx-d3"

if [ "$action" = down ]; then
  for n in $C $RT $R $DS; do ip netns del "$n" 2>/dev/null || true; done
  exit 0
fi

for n in $C $RT $R $DS; do
  ip netns add "$n"
  ip -n "$n" link set lo up
  ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
    net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
done
ip netns exec $RT sysctl -qw net.ipv4.ip_forward=1

# pair NS1 IF1 ADDR1 NS2 IF2 ADDR2 (addresses /24; empty: none)
pair() {
  ip -n "$1" link add "$2" type veth peer name "$5" netns "$4"
  [ -z "$3" ] || ip -n "$1" addr add "$3/24" dev "$2"
  [ -z "$6" ] || ip -n "$4" addr add "$6/24" dev "$5"
  ip -n "$1" link set "$2" up
  ip -n "$4" link set "$5" up
}
pair $C c0 10.10.0.2 $RT c 10.10.0.1
for i in $(seq 10 41); do ip -n $C addr add 10.10.0.$i/24 dev c0; done
ip -n $C route add default via 10.10.0.1

ip -n $R link add br0 type bridge
ip -n $R addr add 10.30.0.2/24 dev br0
ip -n $R addr add 10.30.0.3/24 dev br0
ip -n $R link set br0 up
for i in 1 2 3; do
  D=sb-$sfx-d$i
  pair $RT d$i 10.20.$i.1 $D rt0 10.20.$i.2
  pair $D be 10.30.0.1$i $R r$i ""
  ip -n $R link set r$i master br0
  ip -n $D addr add 10.99.0.1/32 dev lo
  ip -n $D route add default via 10.20.$i.1
done
