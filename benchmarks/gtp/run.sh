#!/usr/bin/env bash
# GTP director benchmark, one run (docs/benchmarks.md "GTP benchmark"), everything on loopback in one run so that
# the figures compare. Every path is driven by the project's load tool, `switchboard replay`, from the
# template create-session.pcap with --vary imsi:IMSIS. The template is one GTPv2 Create Session
# Request as an MME sends it on S11 for an initial attach (IMSI 001010000000001, APN internet, RAT
# E-UTRAN, S11 MME F-TEID, a Bearer Context with EBI 5, ...), written by make_create_session.py here
# (struct and scapy); `tshark -r create-session.pcap -T fields -e gtpv2.message_type -e e212.imsi
# -e gtpv2.ebi` prints "32 001010000000001 5". Each subscriber creates its default bearer again and
# again, and each create replaces the subscriber's session (TS 29.274 §7.2.1), so the director holds
# IMSIS sessions however long the run.
#   0. the generator's own ceiling: closed loop against a trivial UDP echo (io.switchboard.bench.UdpEcho,
#      two SO_REUSEPORT sockets);
#   1. closed loop (SOCKETS sockets, WINDOW requests in flight in all): directly to two responders
#      (two replay processes, each with half the sockets and half the window, one per responder,
#      their rates added); the same load through a Switchboard gtp-inspect virtual server in front of
#      the same two responders (IMSI stickiness, sequence rewriting, cause inspection, session
#      learning with F-TEID rewriting); and through nginx's UDP proxy (stream module), twice: with
#      `hash $remote_addr` (the issue's comparison: affinity by client address), and round robin over
#      its per-socket sessions (one per replay socket), in front of the same responders;
#   2. open loop at a fixed RATE (default 50,000/s): latency percentiles, counted from each request's
#      intended send time, against the echo (the generator's own latency), direct, through Switchboard
#      and through nginx.
# Then the ratios: director/direct, director/nginx, ceiling/director, and the CPU per request of each
# middle box (and of the responders, direct).
# With BASELINE_JAR=path/to/an/older/switchboard.jar a second director from that jar is measured in
# the same run (before/after comparisons). With CLUSTER=1 a member of a two-node cluster is measured
# beside the director alone (NET.15, its partner NET.16).
# TRANSPORT=epoll|io_uring|nio sets the director's `transport` (default: the key left out, epoll);
# AB_TRANSPORT=io_uring adds a second director from the same jar on that transport (NET.14), measured
# in the same run, closed and open loop, for a transport A/B with the same load and the same noise.
# SYSCALLS=RATE (e.g. 20000) then counts, with `perf trace -s`, each director's system calls per
# answered request over SECONDS of open loop at RATE/s (lib.sh `syscalls`), after the timed runs.
# NET (default 127.0.0) lets two runs on one machine use different addresses: responders NET.2/.3,
# echo NET.9, Switchboard NET.10, nginx NET.11 (hash) and NET.13 (round robin), baseline NET.12, the
# AB_TRANSPORT director NET.14, the CLUSTER=1 members NET.15 and NET.16, the AB_JAVA_OPTS directors NET.17
# on. replay's sockets are on 127.0.0.1.
# AB_JAVA_OPTS="OPTS;OPTS..." adds a director from the same jar per entry, with those JVM options instead
# of SWITCHBOARD_JAVA_OPTS (a garbage collector A/B: "-Xmx1g -XX:+UseZGC;-Xmx1g -XX:+UseShenandoahGC"); an
# entry that begins with JAVA_HOME=DIR runs that JDK's java (JDK 21's generational ZGC, the only ZGC from 24 on).
# Every director writes a GC log (-Xlog:gc,gc+phases: ZGC logs its pauses as phases); each open-loop
# line of a director says how many GC pauses it made during that run and how long they were (the
# tail's first suspect).
# nginx (Debian: apt-get install -y nginx libnginx-mod-stream) is only for this benchmark; without it
# the nginx rows are skipped. Every process the script starts is stopped by pid.
#
# usage: benchmarks/gtp/run.sh [SECONDS] [IMSIS] [SOCKETS] [WINDOW]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} warmup=${WARMUP:-15} imsis=${2:-100000} sockets=${3:-8} window=${4:-256}
rate=${RATE:-50000} net=${NET:-127.0.0}
work=$(mktemp -d /tmp/gtp-bench.XXXXXX)
replay_args=(--vary "imsi:$imsis")
. "$here/../lib.sh"
template="$here/create-session.pcap"
port=32123

$(pin responder) java -Xmx128m -cp "$bench_jar" io.switchboard.bench.UdpEcho $net.9 $port 2 > "$work/echo.log" 2>&1 &
pids+=($!)
wait_udp $net.9 $port
for a in $net.2 $net.3; do
  $(pin responder) java -Xmx256m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $port > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done

director() { # JAR ADDRESS NAME [TRANSPORT] [CLUSTER_YAML]
  cat > "$work/$3.yaml" <<YAML
${4:+transport: $4}
admin: { enabled: false }
${5:-}
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
  local opts=${director_opts:-${SWITCHBOARD_JAVA_OPTS:--Xmx1g}} java=java
  if [[ $opts == JAVA_HOME=* ]]; then # another JDK: "JAVA_HOME=DIR OPTIONS"
    java=${opts%% *}; java=${java#JAVA_HOME=}/bin/java; [[ $opts == *" "* ]] && opts=${opts#* } || opts=
  fi
  $(pin middle) "$java" $opts -Xlog:gc,gc+phases:file="$work/$3-gc.log" \
    -jar "$1" run --config "$work/$3.yaml" > "$work/$3.log" 2>&1 &
  pids+=($!)
  director_pid=$!
  wait_udp $2 $port ${5:+120} # a cluster member serves once it has joined and caught up
}
director "$app_jar" $net.10 switchboard "${TRANSPORT:-}"
# name|target|pids: the target is one HOST:PORT or a comma-separated pair (one replay process per
# target, half the sockets each); the pids are the processes whose CPU time the path costs (the
# responders for "direct", the middle box otherwise).
targets=("direct to the responders|$net.2:$port,$net.3:$port|${pids[1]} ${pids[2]}"
         "through Switchboard gtp-inspect|$net.10:$port|$director_pid")
directors=("through Switchboard gtp-inspect|$net.10:$port|$director_pid")
if [ -n "${AB_TRANSPORT:-}" ]; then
  director "$app_jar" $net.14 ab "$AB_TRANSPORT"
  targets+=("through Switchboard gtp-inspect on $AB_TRANSPORT|$net.14:$port|$director_pid")
  directors+=("through Switchboard gtp-inspect on $AB_TRANSPORT|$net.14:$port|$director_pid")
fi
ab_opts=()
declare -A gclog=(["through Switchboard gtp-inspect"]="$work/switchboard-gc.log")
if [ -n "${AB_JAVA_OPTS:-}" ]; then
  IFS=';' read -r -a ab_opts <<< "$AB_JAVA_OPTS"
  for i in "${!ab_opts[@]}"; do
    director_opts=${ab_opts[$i]} director "$app_jar" $net.$((17 + i)) "jvm-$i" "${TRANSPORT:-}"
    targets+=("through Switchboard gtp-inspect with ${ab_opts[$i]}|$net.$((17 + i)):$port|$director_pid")
    directors+=("through Switchboard gtp-inspect with ${ab_opts[$i]}|$net.$((17 + i)):$port|$director_pid")
    gclog["through Switchboard gtp-inspect with ${ab_opts[$i]}"]="$work/jvm-$i-gc.log"
  done
fi
if [ -n "${BASELINE_JAR:-}" ]; then
  director "$BASELINE_JAR" $net.12 baseline
  targets+=("through the baseline director|$net.12:$port|$director_pid")
fi
# CLUSTER=1: a two-member cluster of the same build (virtual servers on NET.15 and NET.16),
# driven through NET.15 only, so that every new IMSI binding and session it makes is replicated to
# the other member while it forwards: the packet path's cost of the cluster (issue 23's "a node's
# GTP packet path with the cluster on: >= 0.9x the same node alone"), against NET.10 alone in the
# same run. The second member's CPU is not counted in the path's CPU per request (it is the
# replication's, on another host in a real deployment), but it shares this machine's cores.
if [ -n "${CLUSTER:-}" ]; then
  # Hazelcast binds only addresses of an interface: both members on 127.0.0.1, ports of their own
  # per NET so that two runs do not meet.
  hz=$((20000 + ${net##*.} * 10))
  members="[127.0.0.1:$((hz + 5)), 127.0.0.1:$((hz + 6))]"
  # One after the other, each once it serves (after its join): the second finds the first at its
  # join instead of forming a cluster of its own.
  for m in 16 15; do
    director "$app_jar" $net.$m member-$m "${TRANSPORT:-}" \
      "cluster: { enabled: true, name: gtp-bench-$$, bind: 127.0.0.1, port: $((hz + m - 10)), members: $members }"
  done
  targets+=("through a member of a 2-node cluster|$net.15:$port|$director_pid")
fi

nginx_bin=$(command -v nginx || true)
stream_module=/usr/lib/nginx/modules/ngx_stream_module.so
if [ -n "$nginx_bin" ] && [ -f "$stream_module" ]; then
  # nginx keeps a UDP session per client address and port, i.e. per replay socket: round robin
  # (its default) gives each socket's session a responder in turn, so both get half the sockets.
  cat > "$work/nginx.conf" <<NGINX
load_module $stream_module;
daemon off;
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 65536; }
stream {
  # The issue's comparison: affinity by client address, the nearest nginx has to IMSI stickiness.
  upstream by_address {
    hash \$remote_addr;
    server $net.2:$port;
    server $net.3:$port;
  }
  upstream round_robin {
    server $net.2:$port;
    server $net.3:$port;
  }
  server {
    listen $net.11:$port udp reuseport;
    proxy_pass by_address;
    proxy_timeout 10s;
  }
  server {
    listen $net.13:$port udp reuseport;
    proxy_pass round_robin;
    proxy_timeout 10s;
  }
}
NGINX
  $(pin middle) "$nginx_bin" -c "$work/nginx.conf" -p "$work" > "$work/nginx.log" 2>&1 &
  pids+=($!)
  nginx_pid=$!
  wait_udp $net.11 $port
  wait_udp $net.13 $port
  targets+=("through nginx (hash \$remote_addr)|$net.11:$port|$nginx_pid"
            "through nginx (round robin)|$net.13:$port|$nginx_pid")
else
  echo "nginx with the stream module is not installed: its rows are skipped" >&2
fi

echo "GTP benchmark: $seconds s per run, $imsis IMSIs, replay with $sockets sockets, $window in flight" \
  "(closed loop), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(pin_note)"
path $net.9:$port "$warmup" closed > /dev/null
name() { echo "${1%%|*}"; }
target() { local rest=${1#*|}; echo "${rest%%|*}"; }
target_pids() { echo "${1##*|}"; }
for t in "${targets[@]}"; do
  path "$(target "$t")" "$warmup" closed > /dev/null
done
declare -A rates cpu
echo "closed loop:"
t0=$(ticks "${pids[0]}")
ceiling=$(path $net.9:$port "$seconds" closed)
t1=$(ticks "${pids[0]}")
echo_cpu=$(cpu_us $((t1 - t0)) "$(cut -d' ' -f5 <<< "$ceiling")")
show "generator ceiling (UDP echo)" "$ceiling"
for t in "${targets[@]}"; do
  t0=$(ticks $(target_pids "$t"))
  result=$(path "$(target "$t")" "$seconds" closed)
  t1=$(ticks $(target_pids "$t"))
  rates["$(name "$t")"]=${result%% *}
  cpu["$(name "$t")"]=$(cpu_us $((t1 - t0)) "$(cut -d' ' -f5 <<< "$result")")
  show "$(name "$t")" "$result"
done
declare -A p99s
# In the open loop each path also prints how busy the whole machine was (generator, responders and
# middle box share its cores: a p99 target needs idle CPU left over) and the middle box's CPU per
# answered request, which is higher than in the closed loop: fewer datagrams per system call and
# more wake-ups of sleeping receivers at a steady rate than with a full window.
echo "open loop at $rate requests/s (latency from the intended send time; an answer after 1 s is lost):"
machine_during "$seconds" "$work/machine" & sampler=$!
echo_open=$(path $net.9:$port "$seconds" open)
wait $sampler
show "generator alone (UDP echo)" "$echo_open"
echo "    machine: $(cat "$work/machine")"
for t in "${targets[@]}"; do
  machine_during "$seconds" "$work/machine" & sampler=$!
  log=${gclog[$(name "$t")]:-}
  from=$([ -n "$log" ] && wc -l < "$log" || echo 0) # the GC log's lines before this run
  t0=$(ticks $(target_pids "$t"))
  result=$(path "$(target "$t")" "$seconds" open)
  t1=$(ticks $(target_pids "$t"))
  wait $sampler
  p99s["$(name "$t")"]=$(cut -d' ' -f3 <<< "$result")
  show "$(name "$t")" "$result"
  echo "    machine: $(cat "$work/machine"); CPU per request: $(cpu_us $((t1 - t0)) "$(cut -d' ' -f5 <<< "$result")") us"
  if [ -n "$log" ]; then echo "    GC during it: $(gc_pauses "$log" "$from")"; fi
done
direct=${rates["direct to the responders"]}
sb=${rates["through Switchboard gtp-inspect"]}
ratio "director/direct" "$sb" "$direct"
for t in "${targets[@]}"; do
  n=$(name "$t")
  case "$n" in
    through\ nginx\ \(hash*) ratio "director/nginx (hash \$remote_addr, the issue's target)" "$sb" "${rates[$n]}" ;;
    through\ nginx*) ratio "director/nginx (round robin)" "$sb" "${rates[$n]}" ;;
    through\ the\ baseline*) ratio "baseline/direct" "${rates[$n]}" "$direct"
                             ratio "director/baseline" "$sb" "${rates[$n]}" ;;
    through\ a\ member*) ratio "cluster member/director alone (issue 23's target: >= 0.9)" "${rates[$n]}" "$sb" ;;
  esac
done
# CPU per answered request (closed loop): on a shared machine a steadier comparison than the rates,
# which depend on who else gets the CPU; "direct" is the two responders together.
for t in "${targets[@]}"; do
  printf '  CPU per request, %-40s %s us\n' "$(name "$t"):" "${cpu[$(name "$t")]}"
done
# The echo receives one datagram and sends one per request; a relay does that twice (client side and
# real side), so twice the echo's figure is about the least any proxy costs on this machine.
printf '  CPU per request, %-40s %s us\n' "UDP echo (one datagram in, one out):" "$echo_cpu"
ratio "generator ceiling/director" "${ceiling%% *}" "$sb"
ratio "generator ceiling/direct" "${ceiling%% *}" "$direct"
if [ -n "${AB_TRANSPORT:-}" ]; then
  ab="through Switchboard gtp-inspect on $AB_TRANSPORT"
  ratio "$AB_TRANSPORT/${TRANSPORT:-epoll} rate (closed loop)" "${rates[$ab]}" "$sb"
  ratio "$AB_TRANSPORT/${TRANSPORT:-epoll} CPU per request (closed loop)" "${cpu[$ab]}" "${cpu["through Switchboard gtp-inspect"]}"
  echo "p99 at $rate/s on $AB_TRANSPORT: ${p99s[$ab]} ms"
fi
for opts in "${ab_opts[@]}"; do
  ab="through Switchboard gtp-inspect with $opts"
  ratio "($opts)/(${SWITCHBOARD_JAVA_OPTS:--Xmx1g}) CPU per request (closed loop)" "${cpu[$ab]}" "${cpu["through Switchboard gtp-inspect"]}"
  echo "p99 at $rate/s with $opts: ${p99s[$ab]} ms"
done
if [ -n "${SYSCALLS:-}" ]; then
  for t in "${directors[@]}"; do
    syscalls "$(name "$t")" "$(target_pids "$t")" "$(target "$t")" "$seconds" "$SYSCALLS"
  done
fi
echo "p99 at $rate/s through the director: ${p99s["through Switchboard gtp-inspect"]} ms (direct: ${p99s["direct to the responders"]} ms," \
  "generator alone: $(cut -d' ' -f3 <<< "$echo_open") ms)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
