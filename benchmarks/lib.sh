# Shared by the benchmark scripts (sourced): process clean-up, the build, waiting for a UDP listener,
# and driving a path with `switchboard replay`. The caller sets root, work and the replay settings
# (template, sockets, window, rate, replay_args: the template's --vary/--secret options).

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

# PIN=1: each role on CPUs of its own (taskset), so that on a larger machine the director's figures are
# the director's alone and not its share of cores it fights the load generator for. With N CPUs:
# the generator (replay) on CPU 0, the responders and the echo on CPU 1, the middle box (Switchboard,
# nginx, FreeRADIUS) on CPUs 2..N-1; on 3 CPUs the middle box gets CPU 2; on 2 CPUs the generator
# and the responders share CPU 0 and the middle box has CPU 1. Without PIN nothing is pinned.
# Usage: $(pin generator|responder|middle) COMMAND... (a prefix, so that a command started with & keeps
# its own pid: taskset execs it).
pin() {
  [ -n "${PIN:-}" ] || return 0
  local n; n=$(nproc)
  [ "$n" -ge 2 ] || return 0
  case "$1:$((n >= 3 ? 3 : n))" in
    generator:*) echo "taskset -c 0" ;;
    responder:2) echo "taskset -c 0" ;;
    responder:*) echo "taskset -c 1" ;;
    middle:2) echo "taskset -c 1" ;;
    middle:*) echo "taskset -c 2-$((n - 1))" ;;
  esac
}
pin_note() { # one line for the report header
  if [ -z "${PIN:-}" ]; then echo "not pinned (PIN=1 pins generator, responders and middle box apart)"; return; fi
  case $(( $(nproc) >= 3 ? 3 : $(nproc) )) in
    1) echo "PIN=1 ignored: one CPU" ;;
    2) echo "pinned: generator and responders CPU 0, middle box CPU 1" ;;
    *) echo "pinned: generator CPU 0, responders CPU 1, middle box CPUs 2-$(( $(nproc) - 1 ))" ;;
  esac
}

wait_udp() { # ADDRESS PORT [SECONDS, default 10]
  for _ in $(seq 1 $((${3:-10} * 10))); do
    if ss -Hulpn "src $1:$2" | grep -q .; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on $1:$2" >&2; exit 1
}

# One replay run: TARGET SECONDS OPTIONS... (--sockets, --window or --rate, --secret); prints replay's
# JSON report (nothing when it failed).
replay() {
  local to=$1 s=$2; shift 2
  $(pin generator) java -Xmx512m -jar "$app_jar" replay "$template" --to "$to" --duration "${s}s" --timeout 1s \
    "${replay_args[@]}" "$@" 2>/dev/null || true
}
field() { sed -E "s/.*\"$1\":([0-9.]+).*/\\1/" <<< "$2"; }

# One path: TARGETS SECONDS closed|open [OPTIONS...]. TARGETS is one HOST:PORT or a comma-separated
# list: one replay process per target, in parallel, with the sockets, the window (closed loop) or
# the rate (open loop) split evenly. Prints "answered_per_s p50_ms p99_ms sent answered lost":
# rates and counts added, the worst of the percentiles.
path() {
  local IFS=, ; local to=($1); unset IFS
  local n=${#to[@]} s=$2 mode=$3 i; shift 3
  local each=(--sockets $((sockets / n)))
  if [ "$mode" = closed ]; then each+=(--window $((window / n))); else each+=(--rate $((rate / n))); fi
  local running=()
  for i in "${!to[@]}"; do
    replay "${to[$i]}" "$s" "${each[@]}" "$@" > "$work/path-$i.json" &
    running+=($!)
  done
  wait "${running[@]}"
  local a=0 p50=0 p99=0 sent=0 answered=0 lost=0 r
  for i in "${!to[@]}"; do
    r=$(cat "$work/path-$i.json")
    if [ -z "$r" ]; then echo "0 0 0 0 0 0"; return; fi
    a=$((a + $(field answered_per_s "$r"))); sent=$((sent + $(field sent "$r")))
    answered=$((answered + $(field answered "$r"))); lost=$((lost + $(field lost "$r")))
    p50=$(awk -v a="$p50" -v b="$(field p50 "$r")" 'BEGIN { print (b > a ? b : a) }')
    p99=$(awk -v a="$p99" -v b="$(field p99 "$r")" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$a $p50 $p99 $sent $answered $lost"
}
show() { # NAME "answered_per_s p50_ms p99_ms sent answered lost"
  local v=($2)
  printf '  %-42s answered/s=%s sent=%s answered=%s lost=%s p50_ms=%s p99_ms=%s\n' "$1:" \
    "${v[0]}" "${v[3]}" "${v[4]}" "${v[5]}" "${v[1]}" "${v[2]}"
}
# CPU time (user + system, clock ticks) the processes PIDS... and their child processes (nginx's
# workers) have used so far, threads included.
ticks() {
  local t=0 pid child
  for pid in "$@"; do
    for child in "$pid" $(pgrep -P "$pid" || true); do
      t=$((t + $(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)))
    done
  done
  echo "$t"
}
# The whole machine's CPU time so far (clock ticks, all cores) and the time: "busy kernel uptime_s",
# kernel including interrupts and softirqs (the loopback delivery of every datagram is softirq work).
machine_ticks() { echo "$(awk '/^cpu / { print $2 + $3 + $4 + $7 + $8, $4 + $7 + $8 }' /proc/stat) $(cut -d' ' -f1 /proc/uptime)"; }
# What the machine did between two machine_ticks (BEFORE AFTER): "cores busy of N, kernel share".
machine_use() {
  local a=($1) b=($2)
  awk -v busy=$((b[0] - a[0])) -v kernel=$((b[1] - a[1])) -v t0="${a[2]}" -v t1="${b[2]}" \
    -v hz="$(getconf CLK_TCK)" -v n="$(nproc)" \
    'BEGIN { printf "%.2f of %d cores busy, %.0f %% of it kernel", busy / hz / (t1 - t0), n, (busy > 0 ? 100 * kernel / busy : 0) }'
}
# In the background while a path of SECONDS (> 4) runs: the machine's use in its middle, from 3 s
# after the start (replay's own JVM start-up is over) to 1 s before the end; written to FILE.
machine_during() { # SECONDS FILE
  local m0
  if [ "$1" -lt 5 ]; then echo "not measured (runs under 5 s)" > "$2"; return; fi
  sleep 3; m0=$(machine_ticks); sleep $(($1 - 4))
  machine_use "$m0" "$(machine_ticks)" > "$2"
}
# Microseconds of CPU per answered request: TICKS ANSWERED.
cpu_us() { awk -v t="$1" -v n="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / hz / n : 0) }'; }
# The stop-the-world pauses a JVM's -Xlog:gc file has logged after its line FROM: "N pauses, p50, p99,
# longest, total". G1, ZGC and Shenandoah all write "Pause ..." lines ending in the pause's time; their
# concurrent phases (not pauses) are other lines.
gc_pauses() { # FILE FROM
  tail -n +$(($2 + 1)) "$1" | grep 'Pause' | grep -oE '[0-9.]+ms$' | tr -d 'ms' | sort -n | awk '
    { v[++n] = $1; total += $1 }
    END { if (n == 0) { print "no pause"; exit }
          printf "%d pauses, p50 %.2f ms, p99 %.2f ms, longest %.2f ms, %.0f ms in all", n, v[int((n + 1) / 2)],
            v[(n > 1 ? int(n * 0.99 + 0.5) : 1)], v[n], total }'
}
ratio() { # LABEL A B
  awk -v a="$2" -v b="$3" -v label="$1" 'BEGIN { printf "%s = %.2f\n", label, (b > 0 ? a / b : 0) }'
}
# System calls per answered request of one process (the director): NAME PID TARGET SECONDS RATE
# [REPLAY OPTIONS...].
# `perf trace -s` (raw_syscalls tracepoints: far cheaper than strace's ptrace stops, which would
# slow the director to the tracer's pace) counts every thread's calls while TARGET gets an open loop
# of RATE requests/s for SECONDS; printed per answered request, for the whole process and for its
# Vert.x event loops (the packet path: reads, writes, waits), with the event loops' calls by name.
# Without perf (apt-get install linux-perf) or without the permission to trace, says so and goes on.
syscalls() {
  local name=$1 pid=$2 target=$3 s=$4 r=$5 trace="$work/trace-${1// /_}.txt" tracer result answered
  shift 5
  if ! command -v perf > /dev/null; then echo "  syscalls, $name: perf not installed, not counted"; return; fi
  perf trace -s -p "$pid" -o "$trace" > /dev/null 2>&1 & tracer=$!
  sleep 2 # perf attaches to every thread
  local saved_rate=$rate; rate=$r
  result=$(path "$target" "$s" open "$@")
  rate=$saved_rate
  kill -INT "$tracer" 2>/dev/null || true; wait "$tracer" 2>/dev/null || true
  answered=$(cut -d' ' -f5 <<< "$result")
  if [ ! -s "$trace" ] || [ "${answered:-0}" -eq 0 ]; then
    echo "  syscalls, $name: not counted (perf trace failed or nothing answered)"; return
  fi
  # perf trace -s: a "comm (tid), N events" line per thread, then rows "syscall calls errors ...".
  awk -v n="$answered" -v name="$name" -v r="$r" '
    /^ .* \([0-9]+\), [0-9]+ events/ { loop = ($0 ~ /vert\.x-eventlo/); next }
    $1 ~ /^[a-z_0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 8 { all += $2; if (loop) { ev += $2; by[$1] += $2 } }
    END {
      printf "  syscalls per request, %s (open loop %d/s, %d answered): %.2f in all, %.2f on the event loops:", name, r, n, all / n, ev / n
      for (s in by) printf " %s %.3f", s, by[s] / n
      printf "\n"
    }' "$trace"
}
