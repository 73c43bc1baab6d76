#!/usr/bin/env bash
# GTP director benchmark, one run (README "GTP benchmark"):
#   1. GTPv2 Create Session Requests per second sent directly to two responders (the load generator
#      splits its sockets between them);
#   2. the same load through a Switchboard gtp-inspect virtual server in front of the same two
#      responders (IMSI stickiness over IMSIS subscribers, sequence rewriting, cause inspection,
#      session learning with F-TEID rewriting).
# nginx's UDP proxy and the p99 latency at a fixed 50k/s (issue 4) are not measured yet.
# Everything on loopback (127.0.0.2/3 responders, .10 director); every process it starts is stopped by pid.
#
# usage: benchmarks/gtp/run.sh [SECONDS] [IMSIS] [SOCKETS] [WINDOW]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} warmup=${WARMUP:-5} imsis=${2:-100000} sockets=${3:-8} window=${4:-32}
work=$(mktemp -d /tmp/gtp-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
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

for a in 127.0.0.2 127.0.0.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $port > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done

cat > "$work/switchboard.yaml" <<YAML
admin: { enabled: false }
farms:
  pgw:
    reals:
      - { address: 127.0.0.2, port: $port, weight: 1 }
      - { address: 127.0.0.3, port: $port, weight: 1 }
virtual-servers:
  gtp-c:
    listen: 127.0.0.10:$port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: 1h }
    gtp: { versions: [2] }
YAML
java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$app_jar" run --config "$work/switchboard.yaml" > "$work/switchboard.log" 2>&1 &
pids+=($!)
wait_udp 127.0.0.10 $port

load() { # TARGETS [SECONDS]
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpLoad "$1" "${2:-$seconds}" "$imsis" "$sockets" "$window" 2>/dev/null
}

echo "GTP benchmark: $seconds s per run, $imsis IMSIs, $sockets sockets x $window outstanding, $(nproc) cores"
for target in "127.0.0.2:$port,127.0.0.3:$port" "127.0.0.10:$port"; do
  load $target "$warmup" > /dev/null
done
direct=$(load 127.0.0.2:$port,127.0.0.3:$port)
echo "direct to the responders:             $direct"
director=$(load 127.0.0.10:$port)
echo "through Switchboard gtp-inspect:      $director"
rate() { sed -E 's/^rate=([0-9]+).*/\1/' <<< "$1"; }
awk -v d="$(rate "$direct")" -v s="$(rate "$director")" 'BEGIN { printf "director/direct = %.2f\n", s / d }'
