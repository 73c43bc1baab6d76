#!/bin/sh
# The cluster benchmark of issues 7 and 23 (StickyClusterBenchmark): raw Hazelcast and the sticky table
# on the same 1, 2 and 3 members, each a JVM of its own on 127.0.0.1, interleaved, in one run. Usage:
# benchmarks/cluster/run.sh [bindings (default 1000000) [member -Xmx (default 1536m) [member counts (default 1,2,3) [short]]]]
# Then the one-member split of the heap per binding: BindingFootprint (replica vs IMap entry).
# MEMBER_GC: the members' collector option (default -XX:+UseSerialGC; e.g. -XX:+UseG1GC, as a node runs).
set -eu
cd "$(dirname "$0")/../.."
mvn -o -q -B -pl cluster -am test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath >&2
cp="cluster/target/test-classes:cluster/target/classes:$(cat cluster/target/bench.classpath)"
opens="--add-modules java.se --add-exports java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.management/sun.management=ALL-UNNAMED --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED"
echo "# $(date -u +%FT%TZ), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -Xmx256m -Dswitchboard.bench.memberGc="${MEMBER_GC:--XX:+UseSerialGC}" -cp "$cp" io.switchboard.cluster.StickyClusterBenchmark "${1:-1000000}" "${2:-1536m}" "${3:-1,2,3}" ${4:+"$4"}
echo "# one member, split: $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086
java -Xmx${2:-1536m} -XX:+UseSerialGC $opens -cp "$cp" io.switchboard.cluster.BindingFootprint "${1:-1000000}" 2>/dev/null
