#!/usr/bin/env bash
# Instructions per request of one Switchboard RADIUS director, counted by valgrind (callgrind): a
# measure that other load on the machine does not disturb, where the requests per second of run.sh
# and its CPU time per request do (README "The BlastRADIUS defences and the response cache against
# the build before them"). The director of JAR runs under callgrind with its counting off, in
# front of the two RadiusResponders of run.sh, with the same configuration (client and real secrets
# differ, sticky by Calling-Station-Id); `switchboard replay` sends the template's Access-Requests
# at RATE per second (open loop) for WARMUP seconds, so that the JIT compilers are done, then three
# windows of SECONDS_PER_WINDOW each, counted one by one (callgrind_control). Each window's instructions are
# divided by the requests sent in it and reported by thread kind: the event loops (every thread
# that called recvmmsg: the packet path, user space only), the JIT compilers, and the rest (GC, VM).
# Under valgrind the director runs some 50 times slower: RATE must stay below what it answers. Needs
# valgrind (apt-get install valgrind). The machine's hardware counters (perf stat -e instructions)
# would do the same without valgrind where the virtual machine offers them; this one does not.
#
# usage: [RATE=300] [WARMUP=240] [SECONDS_PER_WINDOW=30] [NET=127.0.0] benchmarks/radius/instructions.sh JAR NAME
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
jar=$1 name=$2 rate=${RATE:-300} warmup=${WARMUP:-240} seconds=${SECONDS_PER_WINDOW:-30}
net=${NET:-127.0.0}
work=$(mktemp -d /tmp/radius-instructions.XXXXXX)
sockets=2
replay_args=(--vary "calling-station-id:100000")
. "$here/../lib.sh"
template="$here/access-request.pcap"
port=31812

for a in $net.2 $net.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $port real-secret \
    > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done
cat > "$work/director.yaml" <<YAML
admin: { enabled: false }
farms:
  aaa:
    reals:
      - { address: $net.2, port: $port, weight: 1, secret: real-secret }
      - { address: $net.3, port: $port, weight: 1, secret: real-secret }
virtual-servers:
  radius-auth:
    listen: $net.10:$port
    service: radius
    farm: aaa
    clients: [ { subnet: 127.0.0.0/8, secret: client-secret } ]
    sticky: { keys: [calling-station-id, username], idle: 1h }
YAML
# HotSpot turns a null field read into a SIGSEGV it handles; under valgrind that signal is taken for a
# crash, so compiled code checks for null explicitly. The serial collector: one GC thread to count.
valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --callgrind-out-file="$work/cg.out" \
  java -Xmx1g -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-ImplicitNullChecks \
  -jar "$jar" run --config "$work/director.yaml" > "$work/director.log" 2>&1 &
director=$!
pids+=($director)
for _ in $(seq 1 600); do
  if ss -Hulpn "src $net.10:$port" | grep -q .; then break; fi
  sleep 0.5
done
path $net.10:$port "$warmup" open --secret client-secret > /dev/null

window() { # N
  callgrind_control -z $director > /dev/null
  callgrind_control -i on $director > /dev/null
  local r sent loop=0 compilers=0 other=0 f ir
  r=$(path $net.10:$port "$seconds" open --secret client-secret)
  callgrind_control -i off $director > /dev/null
  rm -f "$work"/cg.out.*
  callgrind_control -d $director > /dev/null
  sleep 2
  sent=$(cut -d' ' -f4 <<< "$r")
  for f in "$work"/cg.out.*-*; do
    ir=$(awk '/^totals:/ { print $2; exit }' "$f")
    ir=${ir:-0}
    if grep -q "netty_epoll_native_recvmmsg0" "$f"; then loop=$((loop + ir))
    elif grep -q "CompileBroker\|Compile::Init\|Compilation::compile" "$f"; then compilers=$((compilers + ir))
    else other=$((other + ir)); fi
  done
  echo "$name window $1: sent=$sent answered=$(cut -d' ' -f5 <<< "$r"); instructions per request:" \
    "event loops $((loop / sent)), JIT compilers $((compilers / sent)), other threads $((other / sent))," \
    "all $(((loop + compilers + other) / sent))"
}
for n in 1 2 3; do window $n; done
