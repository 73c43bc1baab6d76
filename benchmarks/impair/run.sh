#!/usr/bin/env bash
# Loss and duplication through the director (docs/overload.md "Loss, duplication, reordering"), in a
# network namespace of its own so that its nftables rules touch nothing else on the machine. netem
# (tc qdisc ... netem) would be the tool, but this kernel is built without it
# (CONFIG_NET_SCH_NETEM is not set; see the page); nftables gives loss (numgen random ... drop, on the
# input hook: every hop of the path — client to director, director to real, and back — crosses it
# once) and duplication (numgen random ... dup to, on the output hook: every hop again). Reordering
# needs a delay, which nftables has not: not measured here.
# One director (gtp-inspect, IMSI stickiness; radius, Calling-Station-Id stickiness) in front of two
# GtpBenchResponders and two RadiusResponders; the valid load is `switchboard replay`, open loop, GTP
# Create Session Requests for IMSIS subscribers (each created again and again: a create replaces the
# subscriber's session, TS 29.274 §7.2.1) and RADIUS Access-Requests. For each scenario: what replay
# saw (sent, answered, lost), the director's counters (received, forwarded, retransmissions
# recognised, answers relayed, unmatched answers, expired requests), and the sessions it holds
# against the subscribers: never more sessions than subscribers (a duplicated create must not open a
# second session, a late answer to a resent create no ghost one).
# Needs root, ip netns, nft, curl.
#
# usage: benchmarks/impair/run.sh [SECONDS] [RATE] [IMSIS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-8} rate=${2:-2000} imsis=${3:-500}
work=$(mktemp -d /tmp/impair-bench.XXXXXX)
template="$here/../gtp/create-session.pcap"
replay_args=()
. "$here/../lib.sh"
ns=sb-impair-$$
ip netns add $ns
trap 'cleanup; ip netns del '$ns' 2>/dev/null || true' EXIT
in_ns() { ip netns exec $ns "$@"; }
in_ns ip link set lo up
# wait_udp from lib.sh looks in this namespace
wait_ns_udp() { for _ in $(seq 1 100); do in_ns ss -Hulpn "src $1:$2" | grep -q . && return 0; sleep 0.1; done; exit 1; }
gtp_port=2123 radius_port=1812 admin=9090
for a in 127.0.0.2 127.0.0.3; do
  # Started with ip netns exec itself, not through in_ns: ip execs java, so $! is the pid cleanup stops
  # (a function in the background would be a subshell of its own).
  ip netns exec $ns java -Xmx128m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $gtp_port > "$work/gtp-$a.log" 2>&1 &
  pids+=($!); wait_ns_udp $a $gtp_port
  ip netns exec $ns java -Xmx128m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $radius_port real-secret \
    > "$work/radius-$a.log" 2>&1 &
  pids+=($!); wait_ns_udp $a $radius_port
done
cat > "$work/director.yaml" <<YAML
admin: { listen: "127.0.0.1:$admin" }
farms:
  pgw:
    failure: { numconns: 1000000, numclients: 1000 }
    reals: [ { address: 127.0.0.2, port: $gtp_port }, { address: 127.0.0.3, port: $gtp_port } ]
  aaa:
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: 127.0.0.2, port: $radius_port, secret: real-secret }
      - { address: 127.0.0.3, port: $radius_port, secret: real-secret }
virtual-servers:
  gtp-c:
    listen: 127.0.0.10:$gtp_port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: 1h }
    gtp: { versions: [2] }
  radius:
    listen: 127.0.0.10:$radius_port
    service: radius
    farm: aaa
    sticky: { key: calling-station-id, idle: 1h }
    clients: [ { subnet: 127.0.0.1/32, secret: client-secret } ]
YAML
ip netns exec $ns java -Xmx512m -jar "$app_jar" run --config "$work/director.yaml" > "$work/director.log" 2>&1 &
pids+=($!)
wait_ns_udp 127.0.0.10 $gtp_port; wait_ns_udp 127.0.0.10 $radius_port

impair() { # LOSS_PERCENT DUP_PERCENT
  in_ns nft delete table ip impair 2>/dev/null || true
  in_ns nft -f - <<NFT
table ip impair {
  chain in {
    type filter hook input priority 0; policy accept;
    meta l4proto udp udp dport { $gtp_port, $radius_port } numgen random mod 1000 < $(( $1 * 10 )) counter drop
    meta l4proto udp udp sport { $gtp_port, $radius_port } numgen random mod 1000 < $(( $1 * 10 )) counter drop
  }
  chain out {
    type filter hook output priority 0; policy accept;
    meta l4proto udp udp dport { $gtp_port, $radius_port } numgen random mod 1000 < $(( $2 * 10 )) counter dup to 127.0.0.1 device "lo"
    meta l4proto udp udp sport { $gtp_port, $radius_port } numgen random mod 1000 < $(( $2 * 10 )) counter dup to 127.0.0.1 device "lo"
  }
}
NFT
}
metrics() { in_ns curl -s "http://127.0.0.1:$admin/metrics"; }
total() { grep -E "^$2" "$1" | awk '{ s += $NF } END { printf "%.0f", s }'; }
replay_ns() { # TEMPLATE TO ARGS...
  local t=$1 to=$2; shift 2
  in_ns java -Xmx256m -jar "$app_jar" replay "$t" --to "$to" --duration "${seconds}s" --timeout 1s \
    --sockets 2 "$@" 2>/dev/null || true
}
echo "loss and duplication (nftables in a namespace): $seconds s per scenario, GTP and RADIUS at $rate/s each," \
  "$imsis subscribers, load average $(cut -d' ' -f1-3 /proc/loadavg) (a shared machine)"
printf '| loss %% per hop | dup %% per hop | GTP sent | GTP answered | GTP lost | RADIUS sent | RADIUS answered | RADIUS lost | received | forwarded | retransmissions recognised | relayed | unmatched answers | expired | GTP sessions / subscribers |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for scenario in "0 0" "1 0" "5 0" "0 5" "5 5"; do
  set -- $scenario
  impair "$1" "$2"
  metrics > "$work/before.txt"
  replay_ns "$here/../gtp/create-session.pcap" 127.0.0.10:$gtp_port --vary imsi:$imsis --rate $rate > "$work/g.json" &
  g=$!
  replay_ns "$here/../radius/access-request.pcap" 127.0.0.10:$radius_port --vary calling-station-id:$imsis \
    --secret client-secret --rate $rate > "$work/r.json"
  wait $g
  in_ns nft delete table ip impair
  sleep 3   # every request answered or expired (response-timeout 2 s)
  metrics > "$work/after.txt"
  d() { echo $(( $(total "$work/after.txt" "$1") - $(total "$work/before.txt" "$1") )); }
  gj=$(cat "$work/g.json"); rj=$(cat "$work/r.json")
  sessions=$(total "$work/after.txt" 'switchboard_gtp_sessions_open')
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$1" "$2" \
    "$(field sent "$gj")" "$(field answered "$gj")" "$(field lost "$gj")" \
    "$(field sent "$rj")" "$(field answered "$rj")" "$(field lost "$rj")" \
    "$(d switchboard_requests_received_total)" "$(d switchboard_requests_forwarded_total)" \
    "$(d switchboard_requests_retransmitted_total)" "$(d switchboard_responses_relayed_total)" \
    "$(d switchboard_responses_unmatched_total)" "$(d switchboard_requests_expired_total)" "$sessions" "$imsis"
done
echo "unmatched answers by reason (whole run):"
grep -E '^switchboard_responses_unmatched_total' "$work/after.txt" | sed -E 's/^switchboard_responses_unmatched_total\{(.*)\} (.*)/  \1 \2/'
