#!/usr/bin/env bash
# Issue 21's failover benchmark: three director nodes behind a BIRD router (ECMP, BFD), each announcing
# the virtual address through its own BIRD (route-health.bgp), in network namespaces (as root). Per
# scenario (SIGKILL, the node's reals unreachable, graceful stop, the node's link down): the time from
# the event until the router's route no longer names the node, and the RADIUS requests of a steady
# load (24 subscribers, one request every 5 ms, each retransmitted after 300 ms, up to 3 times) that
# needed a retransmission or were never answered; then the replication lag as traffic sees it.
# The harness is BgpFailoverBenchmark (switchboard-app's tests), on the network of BgpEcmpNetnsIT;
# every process it starts is stopped by pid, every namespace deleted.
#
# usage: benchmarks/bgp/run.sh [SCENARIOS (default sigkill,reals,graceful,link,vrrp)]
#   vrrp: the documented keepalived configuration on nodes 1 and 2; SIGKILL of the master's director,
#   time until the standby holds the address
#   BFD_MS, BFD_MULTIPLIER (default 100, 10: what the suite's loaded machines keep up; 50 and 3 on a
#   quiet one)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
report="$root/benchmarks/bgp/results.md"
cd "$root"
mvn -B -q -o -pl switchboard-app -am verify -Dit.test=BgpFailoverBenchmark -Dtest=none \
  -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
  -Dbgp.scenarios="${1:-sigkill,reals,graceful,link,vrrp}" -Dbgp.report="$report" \
  -Dbgp.bfd.millis="${BFD_MS:-100}" -Dbgp.bfd.multiplier="${BFD_MULTIPLIER:-10}" >&2
cat "$report"
