#!/usr/bin/env bash
# The network of PartitionMergeNetsIT: three namespaces a, b, c on one bridge (in namespace l),
# 10.98.0.1, .2, .3/24. "split" cuts c off from a and b with nftables rules in c (both directions,
# every protocol), "heal" removes them.
# Usage: net.sh up SUFFIX | split SUFFIX | heal SUFFIX | down SUFFIX
set -euo pipefail
cmd=$1 sfx=$2
ns() { echo "sbp-$sfx-$1"; }
case "$cmd" in
  down)
    for n in a b c l; do ip netns del "$(ns $n)" 2>/dev/null || true; done
    ;;
  split)
    ip netns exec "$(ns c)" nft -f - <<'NFT'
table inet partition {
  chain in { type filter hook input priority 0; ip saddr { 10.98.0.1, 10.98.0.2 } drop; }
  chain out { type filter hook output priority 0; ip daddr { 10.98.0.1, 10.98.0.2 } drop; }
}
NFT
    ;;
  heal)
    ip netns exec "$(ns c)" nft delete table inet partition
    ;;
  up)
    for n in a b c l; do ip netns add "$(ns $n)"; done
    ip -n "$(ns l)" link add br0 type bridge
    ip -n "$(ns l)" link set br0 up
    i=1
    for n in a b c; do
      ip link add "sbp$sfx$n" type veth peer name eth0 netns "$(ns $n)"
      ip link set "sbp$sfx$n" netns "$(ns l)"
      ip -n "$(ns l)" link set "sbp$sfx$n" master br0 up
      ip -n "$(ns $n)" addr add "10.98.0.$i/24" dev eth0
      ip -n "$(ns $n)" link set eth0 up
      ip -n "$(ns $n)" link set lo up
      i=$((i + 1))
    done
    ;;
  *) echo "usage: net.sh up|split|heal|down SUFFIX" >&2; exit 2 ;;
esac
