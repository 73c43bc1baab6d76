#!/usr/bin/env bash
# The dispatched-mode test network (DispatchedModeNetnsIT): five network namespaces joined by veth
# pairs, every MAC address and neighbour entry fixed (no ARP, IPv6 off) so that the interface
# counters of the firewalls count the test's packets and nothing else.
#
#   client sb-X-c            director sb-X-d                 firewalls sb-X-f1, sb-X-f2      server sb-X-s
#   c0 10.1.0.2-9 ---- cl 10.1.0.1   f1o 10.2.1.1 ---- o 10.2.1.2 [f1] i 10.3.1.2 ---- f1i 10.3.1.1
#                                    f2o 10.2.2.1 ---- o 10.2.2.2 [f2] i 10.3.2.2 ---- f2i 10.3.2.1
#                                    sv 10.4.0.1 ---------------------------------------- s0 10.4.0.2, .10
#
# The director's kernel forwards what comes back from the firewalls, but drops (policy route to a
# blackhole) what arrives on cl and sv for elsewhere: that is the director's to dispatch, from its
# capture, to a firewall's MAC address.
#
# Usage: topology.sh up|down SUFFIX
set -euo pipefail
action=$1 sfx=$2
C=sb-$sfx-c D=sb-$sfx-d F1=sb-$sfx-f1 F2=sb-$sfx-f2 S=sb-$sfx-s

if [ "$action" = down ]; then
  for n in $C $D $F1 $F2 $S; do ip netns del "$n" 2>/dev/null || true; done
  exit 0
fi

for n in $C $D $F1 $F2 $S; do
  ip netns add "$n"
  ip -n "$n" link set lo up
  ip netns exec "$n" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1 \
    net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
done

# pair NS1 IF1 MAC1 ADDR1 NS2 IF2 MAC2 ADDR2: a veth pair with fixed MACs, addresses and neighbours.
pair() {
  ip link add "$2" netns "$1" address "$3" type veth peer name "$6" netns "$5" address "$7"
  ip -n "$1" addr add "$4/24" dev "$2"
  ip -n "$5" addr add "$8/24" dev "$6"
  ip -n "$1" link set "$2" up
  ip -n "$5" link set "$6" up
  ip -n "$1" neigh replace "$8" lladdr "$7" dev "$2" nud permanent
  ip -n "$5" neigh replace "$4" lladdr "$3" dev "$6" nud permanent
}
pair $C c0 02:00:00:00:01:01 10.1.0.2 $D cl 02:00:00:00:02:01 10.1.0.1
pair $D sv 02:00:00:00:02:02 10.4.0.1 $S s0 02:00:00:00:05:01 10.4.0.2
pair $D f1o 02:00:00:00:02:11 10.2.1.1 $F1 o 02:00:00:00:03:01 10.2.1.2
pair $D f1i 02:00:00:00:02:12 10.3.1.1 $F1 i 02:00:00:00:03:02 10.3.1.2
pair $D f2o 02:00:00:00:02:21 10.2.2.1 $F2 o 02:00:00:00:04:01 10.2.2.2
pair $D f2i 02:00:00:00:02:22 10.3.2.1 $F2 i 02:00:00:00:04:02 10.3.2.2

# More client addresses (one flow each), known to the director without ARP.
for i in 3 4 5 6 7 8 9; do
  ip -n $C addr add 10.1.0.$i/24 dev c0
  ip -n $D neigh replace 10.1.0.$i lladdr 02:00:00:00:01:01 dev cl nud permanent
done
# A subscriber's framed IP on the server side (the inside), for the Framed-IP step.
ip -n $S addr add 10.4.0.10/24 dev s0
ip -n $D neigh replace 10.4.0.10 lladdr 02:00:00:00:05:01 dev sv nud permanent
ip -n $C route add default via 10.1.0.1
ip -n $S route add default via 10.4.0.1

for f in $F1 $F2; do ip netns exec "$f" sysctl -qw net.ipv4.ip_forward=1; done
ip -n $F1 route add 10.1.0.0/24 via 10.2.1.1
ip -n $F1 route add 10.4.0.0/24 via 10.3.1.1
ip -n $F2 route add 10.1.0.0/24 via 10.2.2.1
ip -n $F2 route add 10.4.0.0/24 via 10.3.2.1

ip netns exec $D sysctl -qw net.ipv4.ip_forward=1
for i in cl sv f1o f1i f2o f2i; do ip netns exec $D sysctl -qw net.ipv4.conf.$i.rp_filter=0; done
ip -n $D route add blackhole default table 100
ip -n $D rule add iif cl lookup 100 pref 100
ip -n $D rule add iif sv lookup 100 pref 101

# Counters on each firewall (nftables): what it forwarded each way, the VPN packets it got, and
# (AllPortDispatchedNetnsIT) the all-port farm's TCP and UDP packets, and GTP ones it must not get.
for f in $F1 $F2; do
  ip netns exec "$f" nft -f - <<'NFT'
table ip sb {
  chain pre {
    type filter hook prerouting priority 0;
    ip protocol esp counter comment "esp"
    ip protocol gre counter comment "gre"
    udp dport 500 counter comment "ike"
    udp dport 4500 counter comment "natt"
    tcp dport 1723 tcp flags syn counter comment "pptp"
    ip daddr 10.1.0.1 udp dport 9000-9099 counter comment "all-udp"
    ip daddr 10.1.0.1 tcp dport 8000-8099 tcp flags syn counter comment "all-tcp"
    udp dport { 2123, 2152 } counter comment "gtp"
  }
  chain forward {
    type filter hook forward priority 0;
    iifname "o" oifname "i" counter comment "out-in"
    iifname "i" oifname "o" counter comment "in-out"
  }
}
NFT
done
