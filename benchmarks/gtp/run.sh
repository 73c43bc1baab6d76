#!/usr/bin/env bash
# GTP director benchmark, one run (README "GTP benchmark"), everything on loopback in one run so that
# the figures compare:
#   1. closed loop (SOCKETS x WINDOW outstanding): GTPv2 Create Session Requests per second sent
#      directly to two responders (the load generator splits its sockets between them); the same load
#      through a Switchboard gtp-inspect virtual server in front of the same two responders (IMSI
#      stickiness over IMSIS subscribers, sequence rewriting, cause inspection, session learning with
#      F-TEID rewriting); and through nginx's UDP proxy (stream module, `hash $remote_addr`) in front
#      of the same responders;
#   2. open loop at a fixed RATE (default 50,000/s): latency percentiles, counted from each request's
#      intended send time, direct, through Switchboard and through nginx.
# With BASELINE_JAR=path/to/an/older/switchboard.jar a second director from that jar is measured in
# the same run (before/after comparisons).
# The load generator's sockets bind NET.101, NET.102, ... so that they are distinct peers (and nginx's
# hash has addresses to spread). NET (default 127.0.0) lets two runs on one machine use different
# addresses: responders NET.2/.3, Switchboard NET.10, nginx NET.11, baseline NET.12.
# nginx (Debian: apt-get install -y nginx libnginx-mod-stream) is only for this benchmark; without it
# the nginx rows are skipped. Every process the script starts is stopped by pid.
#
# usage: benchmarks/gtp/run.sh [SECONDS] [IMSIS] [SOCKETS] [WINDOW]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} warmup=${WARMUP:-5} imsis=${2:-100000} sockets=${3:-8} window=${4:-32}
rate=${RATE:-50000} net=${NET:-127.0.0}
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

for a in $net.2 $net.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $port > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done

director() { # JAR ADDRESS NAME
  cat > "$work/$3.yaml" <<YAML
admin: { enabled: false }
farms:
  pgw:
    # A loaded machine drops datagrams; the benchmark measures forwarding, so that in-band failure
    # detection does not take the responders out of rotation in the middle of a run.
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $port, weight: 1 }
      - { address: $net.3, port: $port, weight: 1 }
virtual-servers:
  gtp-c:
    listen: $2:$port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: 1h }
    gtp: { versions: [2] }
YAML
  java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$1" run --config "$work/$3.yaml" > "$work/$3.log" 2>&1 &
  pids+=($!)
  wait_udp $2 $port
}
director "$app_jar" $net.10 switchboard
targets=("direct to the responders|$net.2:$port,$net.3:$port" "through Switchboard gtp-inspect|$net.10:$port")
if [ -n "${BASELINE_JAR:-}" ]; then
  director "$BASELINE_JAR" $net.12 baseline
  targets+=("through the baseline director|$net.12:$port")
fi

nginx_bin=$(command -v nginx || true)
stream_module=/usr/lib/nginx/modules/ngx_stream_module.so
if [ -n "$nginx_bin" ] && [ -f "$stream_module" ]; then
  cat > "$work/nginx.conf" <<NGINX
load_module $stream_module;
daemon off;
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 65536; }
stream {
  upstream responders {
    hash \$remote_addr;
    server $net.2:$port;
    server $net.3:$port;
  }
  server {
    listen $net.11:$port udp reuseport;
    proxy_pass responders;
    proxy_timeout 10s;
  }
}
NGINX
  "$nginx_bin" -c "$work/nginx.conf" -p "$work" > "$work/nginx.log" 2>&1 &
  pids+=($!)
  wait_udp $net.11 $port
  targets+=("through nginx (hash \$remote_addr)|$net.11:$port")
else
  echo "nginx with the stream module is not installed: its rows are skipped" >&2
fi

load() { # TARGETS SECONDS [OPTIONS...]
  local t=$1 s=$2; shift 2
  java -Xmx512m -cp "$bench_jar" io.switchboard.bench.gtp.GtpLoad "$t" "$s" "$imsis" "$sockets" "$window" \
    --from $net.101 "$@" 2>/dev/null
}
value() { sed -E "s/.*$1=([0-9.]+).*/\\1/" <<< "$2"; }

echo "GTP benchmark: $seconds s per run, $imsis IMSIs, $sockets sockets x $window outstanding, $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
for t in "${targets[@]}"; do
  load "${t#*|}" "$warmup" > /dev/null
done
declare -A rates
echo "closed loop:"
for t in "${targets[@]}"; do
  result=$(load "${t#*|}" "$seconds")
  rates["${t%%|*}"]=$(value rate "$result")
  printf '  %-40s %s\n' "${t%%|*}:" "$result"
done
echo "open loop at $rate requests/s:"
for t in "${targets[@]}"; do
  printf '  %-40s %s\n' "${t%%|*}:" "$(load "${t#*|}" "$seconds" --rate "$rate")"
done
direct=${rates["direct to the responders"]}
sb=${rates["through Switchboard gtp-inspect"]}
awk -v d="$direct" -v s="$sb" 'BEGIN { printf "director/direct = %.2f\n", s / d }'
for t in "${targets[@]}"; do
  case "${t%%|*}" in
    through\ nginx*) awk -v n="${rates["${t%%|*}"]}" -v s="$sb" 'BEGIN { printf "director/nginx = %.2f\n", s / n }' ;;
    through\ the\ baseline*) awk -v b="${rates["${t%%|*}"]}" -v s="$sb" -v d="$direct" \
      'BEGIN { printf "baseline/direct = %.2f, director/baseline = %.2f\n", b / d, s / b }' ;;
  esac
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
