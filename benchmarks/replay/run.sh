#!/usr/bin/env bash
# The load generator's ceiling beside the rate it drives through the director, in one run (README
# "Replay and what-if", issue 8): `switchboard replay` with a GTPv2 Create Session Request template
# (IMSI varied over IMSIS subscribers), closed loop (SOCKETS sockets, WINDOW requests in flight),
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
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ ! -f "$root/benchmarks/target/benchmarks.jar" ] || [ ! -f "$root/switchboard-app/target/switchboard.jar" ] \
   || [ -n "${REBUILD:-}" ]; then
  (cd "$root" && mvn -q -B -o -DskipTests package -pl switchboard-app,benchmarks -am)
fi
bench_jar="$root/benchmarks/target/benchmarks.jar"
app_jar="$root/switchboard-app/target/switchboard.jar"
port=32123

wait_udp() { # ADDRESS PORT
  for _ in $(seq 1 100); do
    if ss -Hulpn "src $1:$2" | grep -q .; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on $1:$2" >&2; exit 1
}

# The template: frame 1 of the crafted capture, a GTPv2 Create Session Request (IMSI 001010000000001).
editcap -r "$root/switchboard-app/src/test/resources/pcaps/crafted/gtpv2-resource-cause.pcap" "$work/create.pcap" 1 \
  > /dev/null 2>&1

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

replay() { # TARGET SECONDS
  java -Xmx512m -jar "$app_jar" replay "$work/create.pcap" --to "$1" --duration "${2}s" --window "$window" \
    --sockets "$sockets" --vary "imsi:$imsis" --timeout 2s 2>/dev/null || true
}
rate() { sed -E 's/.*"answered_per_s":([0-9]+).*/\1/' <<< "$1"; }

echo "replay benchmark: $seconds s per run, $imsis IMSIs, $sockets sockets x $window in flight (closed loop)," \
  "$(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
replay 127.0.4.9:$port "$warmup" > /dev/null
replay 127.0.4.10:$port "$warmup" > /dev/null
ceiling=$(replay 127.0.4.9:$port "$seconds")
echo "ceiling, against the UDP echo:        $ceiling"
director=$(replay 127.0.4.10:$port "$seconds")
echo "through Switchboard gtp-inspect:      $director"
awk -v c="$(rate "$ceiling")" -v d="$(rate "$director")" \
  'BEGIN { printf "ceiling/through-director = %.2f (answered/s %d vs %d)\n", c / d, c, d }'
