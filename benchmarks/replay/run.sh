#!/usr/bin/env bash
# The load generator's ceiling beside the rate it drives through the director, in one run (docs/capture-tools.md
# "Replay and what-if", issue 8): `switchboard replay` with a GTPv2 Create Session Request template
# (benchmarks/gtp/create-session.pcap, IMSI varied over IMSIS subscribers), closed loop (SOCKETS
# sockets, WINDOW requests in flight),
#   1. against a trivial UDP echo on loopback (io.switchboard.bench.UdpEcho, 2 SO_REUSEPORT sockets):
#      the generator's own ceiling;
#   2. through a Switchboard gtp-inspect virtual server in front of two GtpBenchResponders.
# Prints both rates and their ratio (the issue wants ceiling >= 2x the through-director rate).
# Loopback only, addresses 127.0.4.2-.10; every process it starts is stopped by pid.
#
# usage: benchmarks/replay/run.sh [SECONDS] [IMSIS] [SOCKETS] [WINDOW]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} imsis=${2:-100000} sockets=${3:-4} window=${4:-128} warmup=${WARMUP:-3}
work=$(mktemp -d /tmp/replay-bench.XXXXXX)
replay_args=(--vary "imsi:$imsis")
. "$here/../lib.sh"
template="$here/../gtp/create-session.pcap" # a GTPv2 Create Session Request (IMSI 001010000000001)
port=32123

java -Xmx128m -cp "$bench_jar" io.switchboard.bench.UdpEcho 127.0.4.9 $port 2 > "$work/echo.log" 2>&1 &
pids+=($!)
wait_udp 127.0.4.9 $port
for a in 127.0.4.2 127.0.4.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $port > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done
cat > "$work/switchboard.yaml" <<YAML
admin: { enabled: false }
farms:
  pgw:
    reals:
      - { address: 127.0.4.2, port: $port, weight: 1 }
      - { address: 127.0.4.3, port: $port, weight: 1 }
virtual-servers:
  gtp-c:
    listen: 127.0.4.10:$port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: 1h }
    gtp: { versions: [2] }
YAML
java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$app_jar" run --config "$work/switchboard.yaml" > "$work/switchboard.log" 2>&1 &
pids+=($!)
wait_udp 127.0.4.10 $port

echo "replay benchmark: $seconds s per run, $imsis IMSIs, $sockets sockets x $window in flight (closed loop)," \
  "$(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
path 127.0.4.9:$port "$warmup" closed > /dev/null
path 127.0.4.10:$port "$warmup" closed > /dev/null
ceiling=$(path 127.0.4.9:$port "$seconds" closed)
show "ceiling, against the UDP echo" "$ceiling"
director=$(path 127.0.4.10:$port "$seconds" closed)
show "through Switchboard gtp-inspect" "$director"
ratio "ceiling/through-director" "${ceiling%% *}" "${director%% *}"
