#!/usr/bin/env bash
# Instructions per request of the RADIUS director's path without sockets (RadiusPathBenchmark's
# requestAndAnswer: a client's Access-Request through the engine and the radius plug-in, the real's
# Access-Accept back), counted by valgrind (callgrind) on the thread that runs it: WARMUP requests
# uncounted, then COUNT requests counted (RadiusPathCount prints when; callgrind_control turns the
# counter on and off). Other load on the machine does not change the count; the JIT compilers'
# choices may, a little, from run to run. Needs valgrind (apt-get install valgrind).
#
# usage: benchmarks/radius/path-instructions.sh BENCHMARKS_JAR NAME [WARMUP [COUNT [duplicates realSigns]]]
set -uo pipefail
jar=$1 name=$2 warmup=${3:-300000} count=${4:-100000}
shift $(( $# < 4 ? $# : 4 ))
work=$(mktemp -d /tmp/radius-path-instructions.XXXXXX)
# HotSpot turns a null field read into a SIGSEGV it handles; under valgrind that signal is taken for a
# crash, so compiled code checks for null explicitly.
valgrind --tool=callgrind --instr-atstart=no --separate-threads=yes --callgrind-out-file="$work/cg.out" \
  java -Xmx512m -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-ImplicitNullChecks \
  -Dio.netty.leakDetection.level=disabled -cp "$jar" io.switchboard.bench.radius.RadiusPathCount \
  "$warmup" "$count" 40 "$@" > "$work/out.log" 2>&1 &
counted=$!
trap 'kill $counted 2>/dev/null || true' EXIT
until grep -q '^measure' "$work/out.log"; do
  if ! kill -0 $counted 2>/dev/null; then echo "$name: the JVM ended early"; tail "$work/out.log"; exit 1; fi
  sleep 1
done
callgrind_control -z $counted > /dev/null
callgrind_control -i on $counted > /dev/null
until grep -q '^done' "$work/out.log"; do sleep 1; done
callgrind_control -i off $counted > /dev/null
callgrind_control -d $counted > /dev/null
sleep 2
# The thread that counted most is Java's main thread (thread 2: the launcher's own is thread 1),
# which alone runs the path; the JIT compilers should have counted next to nothing.
main=$(for f in "$work"/cg.out.*-*; do awk '/^totals:/ { print $2; exit }' "$f"; done | sort -n | tail -1)
echo "$name: $count requests counted, $((main / count)) instructions per request ($*)"
wait $counted
