#!/usr/bin/env bash
# Malformed floods beside valid traffic (docs/overload.md "Floods"), one run, everything on loopback.
# One director serves a gtp-inspect virtual server (two GtpBenchResponders) and a radius one (two
# RadiusResponders, clients 127.0.0.1/32). The valid load is the project's load tool, `switchboard
# replay`, open loop: GTP from benchmarks/gtp/create-session.pcap (--vary imsi) and RADIUS from
# benchmarks/radius/access-request.pcap (--vary calling-station-id, re-signed), each at a quarter of
# the capacity measured at the start of the same run (closed loop), so together about half of what
# the director takes. Beside it io.switchboard.bench.Flood sends malformed and unauthenticated
# datagrams (truncated and wrong-version GTP, responses and IMSI-less creates to the VIP, short and
# over-long RADIUS, bad authenticators from the known client 127.0.0.1, any request from the unknown
# client 127.0.0.77) at 0x, 1x, 3x and 10x the valid rate, and 0x again at the end. For each: valid answers/s and p99 against
# the no-flood run, what the flood generator managed to send, the director's dropped counters (their
# increase must cover every flood datagram the kernel delivered), forwarded requests (must equal the
# valid requests: nothing malformed forwarded), the kernel's UDP receive-buffer drops on the whole
# machine, and the director's warning lines (rate-limited: one per lane per 10 s).
# The machine is shared: compare the ratios within one run, not absolute figures across runs.
#
# usage: benchmarks/flood/run.sh [SECONDS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} sockets=${SOCKETS:-4} window=${WINDOW:-128} net=${NET:-127.0.0}
work=$(mktemp -d /tmp/flood-bench.XXXXXX)
template="$here/../gtp/create-session.pcap"
replay_args=()
. "$here/../lib.sh"
gtp_port=32123 radius_port=31812 admin_port=${ADMIN_PORT:-39090}
client_secret=client-secret real_secret=real-secret

for a in $net.2 $net.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $gtp_port > "$work/gtp-$a.log" 2>&1 &
  pids+=($!); wait_udp $a $gtp_port
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $radius_port $real_secret \
    > "$work/radius-$a.log" 2>&1 &
  pids+=($!); wait_udp $a $radius_port
done
cat > "$work/director.yaml" <<YAML
admin: { listen: "127.0.0.1:$admin_port" }
farms:
  pgw:
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $gtp_port }
      - { address: $net.3, port: $gtp_port }
  aaa:
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $radius_port, secret: $real_secret }
      - { address: $net.3, port: $radius_port, secret: $real_secret }
virtual-servers:
  gtp-c:
    listen: $net.10:$gtp_port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: 1h }
    gtp: { versions: [2] }
  radius:
    listen: $net.10:$radius_port
    service: radius
    farm: aaa
    sticky: { key: calling-station-id, idle: 1h }
    clients: [ { subnet: 127.0.0.1/32, secret: $client_secret } ]
YAML
java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$app_jar" run --config "$work/director.yaml" > "$work/director.log" 2>&1 &
pids+=($!); director_pid=$!
wait_udp $net.10 $gtp_port; wait_udp $net.10 $radius_port

gtp_template="$here/../gtp/create-session.pcap"
radius_template="$here/../radius/access-request.pcap"
run_gtp() { # SECONDS MODE-OPTIONS...
  local s=$1; shift
  java -Xmx512m -jar "$app_jar" replay "$gtp_template" --to $net.10:$gtp_port --duration "${s}s" --timeout 1s \
    --vary imsi:100000 --sockets "$sockets" "$@" 2>/dev/null || true
}
run_radius() {
  local s=$1; shift
  java -Xmx512m -jar "$app_jar" replay "$radius_template" --to $net.10:$radius_port --duration "${s}s" --timeout 1s \
    --vary calling-station-id:100000 --secret $client_secret --sockets "$sockets" "$@" 2>/dev/null || true
}
metrics() { curl -s "http://127.0.0.1:$admin_port/metrics"; }
# The sum of a metric's samples whose line matches PATTERN, in a /metrics text FILE.
total() { grep -E "^$2" "$1" | awk '{ s += $NF } END { printf "%.0f", s }'; }
rcvbuf_errors() { awk '/^Udp:/ { if (++n == 2) print $6 }' /proc/net/snmp; }
# Datagrams the kernel dropped at the director's own sockets (full receive buffers): ss's skmem d.
socket_drops() { ss -Huamn "src $net.10" | grep -oE 'd[0-9]+\)' | tr -dc '0-9\n' | awk '{ s += $1 } END { print s + 0 }'; }
warnings() { grep -c "WARN" "$work/director.log" || true; }

echo "flood benchmark: $seconds s per run, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)" \
  "(a shared machine: read the ratios)"
run_gtp 5 --window $window > /dev/null; run_radius 5 --window $window > /dev/null   # warm-up
gtp_capacity=$(field answered_per_s "$(run_gtp "$seconds" --window $window)")
radius_capacity=$(field answered_per_s "$(run_radius "$seconds" --window $window)")
gtp_rate=$((gtp_capacity / 4)) radius_rate=$((radius_capacity / 4))
valid_rate=$((gtp_rate + radius_rate))
echo "capacity (closed loop, each alone): GTP $gtp_capacity/s, RADIUS $radius_capacity/s;" \
  "valid load: GTP $gtp_rate/s + RADIUS $radius_rate/s = $valid_rate/s"
# The last two columns say where the CPU went: the director's cores (its CPU time over the row's
# wall time) and the whole machine's busy cores. On a machine whose cores are all busy the valid
# load loses to whoever else runs (the flood generator, the load generators, the responders), and
# that is a measurement of the machine, not of the director's shedding.
printf '| flood | flood sent/s | GTP answered/s | GTP p99 ms | RADIUS answered/s | RADIUS p99 ms | valid vs 0x | dropped counted | flood sent | kernel drops at the director sockets | kernel drops, whole machine | forwarded - valid | warnings | director cores | machine cores busy |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
base=0
# The no-flood run first and last: on a shared machine the two show how much the others' load moved.
for k in 0 1 3 10 0; do
  metrics > "$work/before.txt"; kernel0=$(rcvbuf_errors); sock0=$(socket_drops); warn0=$(warnings)
  d0=$(ticks "$director_pid"); m0=$(machine_ticks)
  flood_out="$work/flood-$k.txt"; : > "$flood_out"
  if [ "$k" -gt 0 ]; then
    java -Xmx128m -cp "$bench_jar" io.switchboard.bench.Flood 127.0.0.1,127.0.0.77 $net.10:$gtp_port \
      $net.10:$radius_port $((k * valid_rate)) "$seconds" > "$flood_out" 2>&1 &
    flood_pid=$!; pids+=($flood_pid)
  fi
  run_gtp "$seconds" --rate $gtp_rate > "$work/gtp-$k.json" &
  g=$!
  run_radius "$seconds" --rate $radius_rate > "$work/radius-$k.json"
  wait $g
  if [ "$k" -gt 0 ]; then wait $flood_pid || true; fi
  d1=$(ticks "$director_pid"); m1=$(machine_ticks)
  sleep 2   # answers in flight and the last counters
  metrics > "$work/after.txt"; kernel1=$(rcvbuf_errors); sock1=$(socket_drops); warn1=$(warnings)
  gj=$(cat "$work/gtp-$k.json"); rj=$(cat "$work/radius-$k.json")
  ga=$(field answered_per_s "$gj") gp=$(field p99 "$gj") ra=$(field answered_per_s "$rj") rp=$(field p99 "$rj")
  valid_sent=$(( $(field sent "$gj") + $(field sent "$rj") ))
  dropped=$(( $(total "$work/after.txt" 'switchboard_dropped_total') - $(total "$work/before.txt" 'switchboard_dropped_total') ))
  answered_locally=$(( $(total "$work/after.txt" 'switchboard_requests_answered_locally_total') \
    - $(total "$work/before.txt" 'switchboard_requests_answered_locally_total') ))
  forwarded=$(( $(total "$work/after.txt" 'switchboard_requests_forwarded_total') - $(total "$work/before.txt" 'switchboard_requests_forwarded_total') ))
  sent=$(sed -nE 's/.*sent=([0-9]+).*/\1/p' "$flood_out"); sent=${sent:-0}
  flood_rate=$(sed -nE 's/.*rate=([0-9]+).*/\1/p' "$flood_out"); flood_rate=${flood_rate:-0}
  valid=$((ga + ra)); [ "$k" -eq 0 ] && [ "$base" -eq 0 ] && base=$valid
  director_cores=$(awk -v t=$((d1 - d0)) -v a="${m0##* }" -v b="${m1##* }" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.2f", (b > a ? t / hz / (b - a) : 0) }')
  machine_cores=$(machine_use "$m0" "$m1" | cut -d' ' -f1)
  printf '| %sx | %s | %s | %s | %s | %s | %s | %s (+%s answered locally) | %s | %s | %s | %s | %s | %s | %s |\n' "$k" "$flood_rate" \
    "$ga" "$gp" "$ra" "$rp" "$(awk -v a=$valid -v b=$base 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" \
    "$dropped" "$answered_locally" "$sent" "$((sock1 - sock0))" "$((kernel1 - kernel0))" "$((forwarded - valid_sent))" "$((warn1 - warn0))" \
    "$director_cores" "$machine_cores"
done
echo "drop reasons (whole run):"
grep -E '^switchboard_dropped_total' "$work/after.txt" | sed -E 's/^switchboard_dropped_total\{(.*)\} (.*)/  \1 \2/'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
