#!/usr/bin/env bash
# Soak (docs/benchmarks.md "Soak", issue 22): a director under churn for MINUTES at LOAD (default 60 %)
# of its capacity on this machine, its heap after GC, RSS and table sizes sampled every minute; they
# must be flat after the warm-up.
#   1. capacity: a director of the same configuration (NET.11, thrown away after) is driven closed loop
#      by `switchboard replay` for CAPACITY_SECONDS on each protocol (GTP Create Session from
#      ../gtp/create-session.pcap, RADIUS Access-Request from ../radius/access-request.pcap), after a
#      warm-up of as long; then the churn's own capacity, the largest share of those two figures at
#      which Churn (below) against a fresh director fails at most MAX_FAILED of its requests, by
#      bisection; LOAD is a share of that. GTP_RATE and RADIUS_RATE (requests/s) skip both.
#   2. the soak: a fresh director (NET.10, admin API on NET.10:18080) with a gtp-inspect virtual server
#      in front of two stand-in PGWs (GtpBenchResponder, NET.2/.3) and two radius virtual servers (auth
#      and acct, one sticky group keyed by Framed-IP-Address and Calling-Station-Id, Framed-IP learned
#      from accounting and purged on Stop) in front of two RadiusResponders each. io.switchboard.bench.Churn
#      loads it open loop at LOAD of the churn capacity (half of it each protocol): subscribers attach
#      (Create Session) and detach LIVE steps later (Delete Session), users authenticate, start accounting
#      on their Access-Accept and stop LIVE steps later. LIVE is HOLD (default 60 s) of GTP attaches, so the
#      steady state holds LIVE sessions, LIVE Framed-IP bindings, and the sticky entries of the last
#      HOLD + STICKY_IDLE.
#   3. every minute: a full GC (jcmd GC.run) and the heap used after it (GC.heap_info), the RSS, the
#      tables (/metrics: gtp sessions, sticky entries; /api/v1/sticky: Framed-IP bindings), the director's
#      pending requests (forwarded − relayed − expired) and its drops.
#   4. the table and the verdict: over the second half (after the warm-up), each series' least-squares
#      slope times the half's length, relative to its mean, flat within TOLERANCE (default 10 %); and
#      "nothing lost": every request the generator sent was answered (in time or late) or counted by the
#      director as a drop with a reason or an expired request.
# Every process it starts is stopped by pid.
#
# usage: benchmarks/soak/run.sh [MINUTES]
#   environment: LOAD (0.6), GTP_RATE, RADIUS_RATE (requests/s, skip the capacity run), HOLD (s, 60),
#   STICKY_IDLE (1m), CAPACITY_SECONDS (15), SUSTAINED (skip the churn search: its share of the
#   closed-loop capacity), SEARCH_STEPS (4), STEP_SECONDS (30 + 3 × HOLD, at least 90), MAX_FAILED
#   (0.001), TOLERANCE (0.10), NET (127.0.6)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
minutes=${1:-60} load=${LOAD:-0.6} hold=${HOLD:-60} idle=${STICKY_IDLE:-1m} cap_s=${CAPACITY_SECONDS:-15}
tolerance=${TOLERANCE:-0.10} net=${NET:-127.0.6}
step_s=${STEP_SECONDS:-$(( 30 + 3 * ${HOLD:-60} > 90 ? 30 + 3 * ${HOLD:-60} : 90 ))} search_steps=${SEARCH_STEPS:-4} max_failed=${MAX_FAILED:-0.001}
work=$(mktemp -d /tmp/soak.XXXXXX)
sockets=8 window=256
. "$here/../lib.sh"
gtp_port=32123 auth_port=31812 acct_port=31813 secret=client-secret real_secret=real-secret

for a in $net.2 $net.3; do
  java -Xmx64m -cp "$bench_jar" io.switchboard.bench.gtp.GtpBenchResponder $a $gtp_port > "$work/gtp-$a.log" 2>&1 &
  pids+=($!)
  for p in $auth_port $acct_port; do
    java -Xmx64m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $p $real_secret \
      > "$work/radius-$a-$p.log" 2>&1 &
    pids+=($!)
  done
done
for a in $net.2 $net.3; do for p in $gtp_port $auth_port $acct_port; do wait_udp $a $p; done; done

director() { # ADDRESS NAME ADMIN(yes|no); the pid in director_pid
  local admin="admin: { enabled: false }"
  if [ "$3" = yes ]; then admin="admin: { listen: $1:18080 }"; fi
  cat > "$work/$2.yaml" <<YAML
$admin
farms:
  pgw:
    # A loaded machine drops datagrams; the soak measures growth, so that in-band failure detection
    # does not take a responder out of rotation in the middle of the run.
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $gtp_port, weight: 1 }
      - { address: $net.3, port: $gtp_port, weight: 1 }
  aaa-auth:
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $auth_port, weight: 1, secret: $real_secret }
      - { address: $net.3, port: $auth_port, weight: 1, secret: $real_secret }
  aaa-acct:
    failure: { numconns: 1000000, numclients: 1000 }
    reals:
      - { address: $net.2, port: $acct_port, weight: 1, secret: $real_secret }
      - { address: $net.3, port: $acct_port, weight: 1, secret: $real_secret }
virtual-servers:
  gtp-c:
    listen: $1:$gtp_port
    service: gtp-inspect
    farm: pgw
    sticky: { key: imsi, idle: $idle }
    # A session whose Delete never comes (its create's answer reached the generator after its timeout,
    # or not at all) ends after session-idle: longer than HOLD, so no live subscriber's does.
    gtp: { versions: [2], session-idle: 3m }
  radius-auth:
    listen: $1:$auth_port
    service: radius
    farm: aaa-auth
    clients: [ { subnet: 127.0.0.0/8, secret: $secret } ]
    sticky: { keys: [framed-ip, calling-station-id], idle: $idle, group: subscribers }
  radius-acct:
    listen: $1:$acct_port
    service: radius
    farm: aaa-acct
    clients: [ { subnet: 127.0.0.0/8, secret: $secret } ]
    sticky: { keys: [framed-ip, calling-station-id], idle: $idle, group: subscribers }
    radius: { framed-ip: { learn: true, purge-on-stop: true } }
YAML
  java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -Xlog:gc:file="$work/$2-gc.log" -jar "$app_jar" run --config "$work/$2.yaml" > "$work/$2.log" 2>&1 &
  director_pid=$!
  pids+=($director_pid)
  wait_udp $1 $gtp_port; wait_udp $1 $auth_port; wait_udp $1 $acct_port
}

echo "Soak: $minutes min at $load of capacity, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)," \
  "$(date -u +%FT%TZ)"
# The generator's counters summed over its kinds: FIELD LINE (sent, answered, lost; no_id is one field).
churn_sum() { grep -oE "(^| )([a-z]+_)?$1=[0-9]+" <<< "$2" | awk -F= '{ s += $2 } END { print s + 0 }'; }
# LIVE for a GTP request rate: HOLD seconds of its attaches (half its requests), at least 100.
live_at() { awk -v r="$1" -v h="$hold" 'BEGIN { n = int(r / 2 * h); print (n < 100 ? 100 : n) }'; }
# One step of the sustained-capacity search: Churn at F × the closed-loop capacities (F/2 of each, as
# LOAD) for STEP_SECONDS against a fresh director; prints "F failed sent director_cpu_s other_cpu_s".
# Failed: unanswered in 2 s (late or never) or not sent for want of a RADIUS identifier.
churn_step() {
  local f=$1 g r l ticks0 ticks1 dticks0 dticks1
  g=$(awk -v c="$gtp_cap_rate" -v f="$f" 'BEGIN { printf "%d", c * f / 2 }')
  r=$(awk -v c="$radius_cap_rate" -v f="$f" 'BEGIN { printf "%d", c * f / 2 }')
  l=$(live_at "$g")
  director $net.11 "step" no
  ticks0=$(machine_ticks | cut -d' ' -f1) # all CPUs' busy time
  dticks0=$(ticks "$director_pid")
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.Churn "$here/../gtp/create-session.pcap" \
    $net.11:$gtp_port $net.11:$auth_port $net.11:$acct_port $secret "$g" "$r" "$l" "$step_s" \
    > "$work/step-$f.log" 2>&1
  dticks1=$(ticks "$director_pid")
  ticks1=$(machine_ticks | cut -d' ' -f1)
  kill "$director_pid"; wait "$director_pid" 2>/dev/null || true
  local final; final=$(grep '^final' "$work/step-$f.log" || true)
  if [ -z "$final" ]; then echo "$f 1 1 0 0"; return; fi
  local hz; hz=$(getconf CLK_TCK)
  echo "$f $(( $(churn_sum lost "$final") + $(churn_sum no_id "$final") )) $(churn_sum sent "$final")" \
    "$(( (dticks1 - dticks0) / hz )) $(( (ticks1 - ticks0 - dticks1 + dticks0) / hz ))"
}
if [ -z "${GTP_RATE:-}" ] || [ -z "${RADIUS_RATE:-}" ]; then
  director $net.11 capacity no
  template="$here/../gtp/create-session.pcap" replay_args=(--vary imsi:100000)
  path $net.11:$gtp_port "$cap_s" closed > /dev/null
  gtp_cap=$(path $net.11:$gtp_port "$cap_s" closed)
  show "capacity, GTP Create Session (closed loop)" "$gtp_cap"
  template="$here/../radius/access-request.pcap" replay_args=(--vary calling-station-id:100000)
  path $net.11:$auth_port "$cap_s" closed --secret $secret > /dev/null
  radius_cap=$(path $net.11:$auth_port "$cap_s" closed --secret $secret)
  show "capacity, RADIUS Access-Request (closed loop)" "$radius_cap"
  kill "$director_pid"; wait "$director_pid" 2>/dev/null || true
  gtp_cap_rate=${gtp_cap%% *} radius_cap_rate=${radius_cap%% *}
  # The closed-loop figures are one message kind each, driven by `replay`; the soak's load is the churn
  # mix (Deletes and accounting too, a session table that holds LIVE subscribers) driven by Churn, which
  # costs this machine more than replay does. Its capacity is the largest share F of the closed-loop
  # figures (F/2 of each) at which a fresh director answers all but MAX_FAILED of the churn's requests
  # within 2 s, found by bisection in SEARCH_STEPS steps of STEP_SECONDS (the first 30 s of each are
  # Churn's ramp; the default, 30 s + 3 × HOLD and at least 90 s, reaches the steady state: at 45 s a
  # step held at rates whose first soak minute the kernel dropped 100,000 datagrams of, while the table
  # of sessions and G1's old generation were still filling); SUSTAINED=F skips the search.
  sustained=${SUSTAINED:-}
  if [ -z "$sustained" ]; then
    lo=0 hi=1
    for _ in $(seq 1 "$search_steps"); do
      mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.4f", (a + b) / 2 }')
      read -r f failed sent dcpu ocpu <<< "$(churn_step "$mid")"
      held=$(awk -v x="$failed" -v n="$sent" -v m="$max_failed" 'BEGIN { print (n > 0 && x / n <= m) ? "held" : "failed" }')
      printf '  churn at %.4f of the closed-loop capacity: %d of %d requests failed (%.3f %%), %s; CPU s: director %d, the rest %d\n' \
        "$f" "$failed" "$sent" "$(awk -v x="$failed" -v n="$sent" 'BEGIN { print (n > 0 ? 100 * x / n : 100) }')" "$held" "$dcpu" "$ocpu"
      if [ "$held" = held ]; then lo=$mid; else hi=$mid; fi
    done
    sustained=$lo
  fi
  if awk -v s="$sustained" 'BEGIN { exit !(s <= 0) }'; then
    echo "no churn rate held within $max_failed failed: no capacity to soak at" >&2; exit 1
  fi
  echo "  churn capacity: $sustained of the closed-loop capacity (each protocol at half of that)"
  GTP_RATE=${GTP_RATE:-$(awk -v c="$gtp_cap_rate" -v s="$sustained" -v l="$load" 'BEGIN { printf "%d", c * s * l / 2 }')}
  RADIUS_RATE=${RADIUS_RATE:-$(awk -v c="$radius_cap_rate" -v s="$sustained" -v l="$load" 'BEGIN { printf "%d", c * s * l / 2 }')}
fi
live=$(live_at "$GTP_RATE")
echo "churn: GTP $GTP_RATE requests/s ($((GTP_RATE / 2)) attaches/s), RADIUS $RADIUS_RATE requests/s" \
  "($((RADIUS_RATE / 3)) users/s), $live live subscribers of each, sticky idle $idle"

director $net.10 soak yes
soak_pid=$director_pid
api="http://$net.10:18080"
java -Xmx256m -cp "$bench_jar" io.switchboard.bench.Churn "$here/../gtp/create-session.pcap" \
  $net.10:$gtp_port $net.10:$auth_port $net.10:$acct_port $secret "$GTP_RATE" "$RADIUS_RATE" "$live" \
  $((minutes * 60)) > "$work/churn.log" 2> "$work/churn.err" &
churn_pid=$!
pids+=($churn_pid)

# The datagrams the kernel dropped at PID's UDP sockets (full receive buffers: never seen by the
# process, so counted by nobody else): the drops of the sockets among its descriptors, in /proc/net/udp
# and udp6 (Java's sockets are IPv6 ones with IPv4-mapped addresses).
sock_drops() {
  local inodes
  inodes=$(ls -l "/proc/$1/fd" 2>/dev/null | sed -nE 's/.*socket:\[([0-9]+)\].*/\1/p' | tr '\n' ' ')
  awk -v list=" $inodes " 'FNR > 1 && index(list, " " $10 " ") { d += $NF } END { print d + 0 }' /proc/net/udp /proc/net/udp6
}
metric() { # NAME-REGEX FILE: the sum of the samples whose name and labels match
  awk -v re="$1" '$0 !~ /^#/ && $1 ~ re { s += $2 } END { printf "%d", s }' "$2"
}
sample() { # MINUTE: one row of the table
  jcmd "$soak_pid" GC.run > /dev/null
  local heap rss m="$work/metrics" fip
  heap=$(jcmd "$soak_pid" GC.heap_info | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { sub(/K.*/, "", $(i + 1)); print int($(i + 1) / 1024); exit } }')
  rss=$(awk '/VmRSS/ { print int($2 / 1024) }' "/proc/$soak_pid/status")
  curl -s "$api/metrics" > "$m"
  fip=$(curl -s "$api/api/v1/sticky?kind=framed-ip&limit=0" | sed -nE 's/.*"total" *: *([0-9]+).*/\1/p')
  local pending=$(( $(metric '^switchboard_requests_forwarded_total' "$m") - $(metric '^switchboard_responses_relayed_total' "$m") \
                    - $(metric '^switchboard_requests_expired_total' "$m") ))
  sock_drops "$churn_pid" > "$work/churn-sock-drops"
  printf '%6s %8s %8s %9s %9s %9s %9s %8s %8s %8s %8s %10s\n' "$1" "$heap" "$rss" \
    "$(metric '^switchboard_gtp_sessions_open' "$m")" \
    "$(metric '^switchboard_sticky_entries\{.*table="gtp-c/imsi"' "$m")" \
    "$(metric '^switchboard_sticky_entries\{.*table="group/subscribers",vserver="radius-auth"' "$m")" \
    "${fip:-0}" "$pending" "$(metric '^switchboard_dropped_total' "$m")" \
    "$(metric '^switchboard_requests_expired_total' "$m")" "$(sock_drops "$soak_pid")" \
    "$(metric '^switchboard_requests_received_total' "$m")"
}
header=$(printf '%6s %8s %8s %9s %9s %9s %9s %8s %8s %8s %8s %10s' minute heap_MB rss_MB sessions imsi_bind \
  radius_bind framed_ip pending drops expired sockdrop received)
echo "$header"
start=$(date +%s)
for m in $(seq 1 "$minutes"); do
  sleep $(( start + m * 60 - $(date +%s) > 0 ? start + m * 60 - $(date +%s) : 0 ))
  sample "$m" | tee -a "$work/table"
done
# The generator's sockets' drops once its counters are final (it keeps them open 3 s after its line).
while kill -0 "$churn_pid" 2>/dev/null && ! grep -q '^final' "$work/churn.log"; do sleep 0.2; done
if kill -0 "$churn_pid" 2>/dev/null; then sock_drops "$churn_pid" > "$work/churn-sock-drops"; fi
wait "$churn_pid" || true
curl -s "$api/metrics" > "$work/metrics"
director_sock_drops=$(sock_drops "$soak_pid")
churn_sock_drops=$(cat "$work/churn-sock-drops" 2>/dev/null || echo 0)
final=$(grep '^final' "$work/churn.log" || true)
echo "generator: ${final:-no final line (see $work/churn.err)}"
echo "director drops by reason:"
awk '$0 !~ /^#/ && $1 ~ /^switchboard_dropped_total/ && $2 > 0 { print "  " $0 }' "$work/metrics"
echo "director: $(curl -s "$api/api/v1/stats" | tr -d ' \n')"
# The minute samples' full GCs stop the director for their pause; the datagrams that arrive meanwhile
# wait in its sockets' buffers (4 MB each), and what does not fit is the kernel's drop.
# (Pauses only: the log's concurrent phases, which do not stop the director, end in a time too.)
echo "director GC pauses: $(grep -c 'Pause' "$work/soak-gc.log") (full: $(grep -c 'Pause Full' "$work/soak-gc.log"))," \
  "longest $(grep 'Pause' "$work/soak-gc.log" | grep -oE '[0-9.]+ms$' | sort -n | tail -1)," \
  "longest young $(grep 'Pause Young' "$work/soak-gc.log" | grep -oE '[0-9.]+ms$' | sort -n | tail -1)"

# The verdict. Each column over the second half: least-squares slope per minute × the half's minutes,
# relative to the column's mean there (a table that grows 1 % of its size per minute moves 30 % in 30 min).
echo "verdict over minutes $((minutes / 2 + 1))..$minutes (tolerance ±$(awk -v t="$tolerance" 'BEGIN { print t * 100 }') % of the mean over the half):"
awk -v from=$((minutes / 2 + 1)) -v tol="$tolerance" -v names="$header" '
  BEGIN { split(names, name, " ") }
  $1 >= from { n++; for (c = 2; c <= 7; c++) { x[c] += $1; y[c] += $c; xx[c] += $1 * $1; xy[c] += $1 * $c }; last = $1; first = (first ? first : $1) }
  END {
    if (n < 3) { print "  too few minutes after the warm-up (" n ")"; exit }
    ok = 1
    for (c = 2; c <= 7; c++) {
      slope = (n * xy[c] - x[c] * y[c]) / (n * xx[c] - x[c] * x[c]); mean = y[c] / n
      change = slope * (last - first)
      rel = mean > 0 ? change / mean : (change == 0 ? 0 : 1)
      flat = (rel <= tol && rel >= -tol)
      if (!flat) ok = 0
      printf "  %-12s mean %10.1f  slope %+9.2f/min  change over the half %+6.1f %%  %s\n", name[c], mean, slope, rel * 100, flat ? "flat" : "NOT FLAT"
    }
    print (ok ? "  heap and tables: FLAT" : "  heap and tables: NOT FLAT")
  }' "$work/table"
# Nothing lost: the generator's unanswered requests (lost minus the late answers, which the director did
# relay) against what was counted: the director's drops with a reason and requests its reals did not
# answer, and the kernel's drops at full socket buffers (the director's and the generator's). Over the
# whole run, and over the second half alone (the generator's line at its middle, the table's row).
lost_check() { # LABEL GENERATOR-LINE DIRECTOR-COUNTED KERNEL-DROPS
  local line=$2 sent answered rejected lost late unanswered accounted
  sum() { grep -oE " [a-z]+_$1=[0-9]+" <<< "$line" | awk -F= '{ s += $2 } END { print s + 0 }'; }
  one() { sed -E "s/.* $1=([0-9]+).*/\\1/" <<< "$line"; }
  sent=$(sum sent) answered=$(sum answered) rejected=$(sum rejected) lost=$(sum lost) late=$(one late)
  unanswered=$((lost - late > 0 ? lost - late : 0)) accounted=$(($3 + $4))
  echo "  $1: generator sent $sent, answered $answered, refused by the real $rejected, unanswered after 2 s $lost," \
    "of which answered late $late, not sent for want of a RADIUS identifier $(one no_id);" \
    "director dropped or expired $3, the kernel dropped $4 at full socket buffers"
  if [ "$unanswered" -le "$accounted" ]; then
    echo "  $1: nothing lost: $unanswered unanswered <= $accounted counted"
  else
    echo "  $1: LOST: $unanswered unanswered, only $accounted counted"
  fi
  if [ -n "${5:-}" ]; then echo "  $1: $5"; fi
}
minus() { # LATER EARLIER: the generator's counters between two of its lines
  awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
    for (i = 2; i <= n; i++) { split(x[i], p, "="); split(y[i], q, "="); printf " %s=%d", p[1], p[2] - q[2] } }'
}
if [ -n "$final" ]; then
  counted=$(( $(metric '^switchboard_dropped_total' "$work/metrics") + $(metric '^switchboard_requests_expired_total' "$work/metrics") ))
  lost_check "whole run" "$final" "$counted" $((director_sock_drops + churn_sock_drops))
  half=$((minutes / 2))
  mid=$(awk -v t=$((half * 60)) '$1 ~ /^t=/ { split($1, a, "="); if (a[2] + 0 >= t) { print; exit } }' "$work/churn.log")
  row=$(awk -v m=$half '$1 == m' "$work/table")
  if [ "$half" -ge 1 ] && [ -n "$mid" ] && [ -n "$row" ]; then
    r=($row)
    # The table's sockdrop column is the director's; the generator's own at its middle are not kept, so
    # the half's kernel figure is the director's alone plus all of the generator's (an upper bound).
    # Not one instant: the generator's line is its first at or after t = half (it writes one every 10 s, t
    # from its own start), the director's counters are read after the minute's full GC; the two are a few
    # seconds apart, and each second is GTP_RATE + RADIUS_RATE requests either way.
    lost_check "second half" "x$(minus "${final#final }" "$mid")" $((counted - r[8] - r[9])) \
      $((director_sock_drops - r[10] + churn_sock_drops)) \
      "the generator (${mid%% *}) and the director (minute $half) read a few seconds apart: each second is $((GTP_RATE + RADIUS_RATE)) requests either way"
  fi
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); raw output in $work"
