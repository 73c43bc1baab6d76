#!/usr/bin/env bash
# RADIUS director benchmark, one run, three figures (README "RADIUS benchmark"):
#   1. Access-Requests/s sent directly to two responders (the load generator splits its sockets);
#   2. the same load through the Switchboard RADIUS director in front of the same two responders
#      (client and real secrets differ: User-Password re-hidden, Message-Authenticator and the
#      answers re-signed; sticky by Calling-Station-Id over SUBSCRIBERS subscribers);
#   3. the same load through FreeRADIUS 3.2 as a load-balance home_server_pool proxy in front of them.
# Everything on loopback (127.0.0.2/3 responders, .10 director, .11 FreeRADIUS); every process it
# starts is stopped by pid. Needs freeradius (apt-get install freeradius).
#
# usage: benchmarks/radius/run.sh [SECONDS] [SUBSCRIBERS] [SOCKETS] [WINDOW]
#
# The load is RadiusLoad (closed loop, SOCKETS x WINDOW outstanding). With REPLAY_RATE=N the project's
# own load tool also runs, open loop at N requests/s for SECONDS, through the director and directly
# to one responder (`switchboard replay` from a template made by template.py, --vary
# calling-station-id:SUBSCRIBERS, re-signed with --secret): answered/lost and latency percentiles.
# It does not replace RadiusLoad: on the 2-core machine its single sender falls behind well below the
# rates RadiusLoad reaches (README, RADIUS benchmark).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} warmup=${WARMUP:-5} subscribers=${2:-100000} sockets=${3:-8} window=${4:-32}
work=$(mktemp -d /tmp/radius-bench.XXXXXX)
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
port=31812
client_secret=client-secret
real_secret=real-secret

wait_udp() { # ADDRESS PORT
  for _ in $(seq 1 100); do
    if ss -Hulpn "src $1:$2" | grep -q .; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on $1:$2" >&2; exit 1
}

for a in 127.0.0.2 127.0.0.3; do
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $port $real_secret \
    > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done

load() { # TARGETS SECRET [SECONDS]
  java -Xmx256m -cp "$bench_jar" io.switchboard.bench.radius.RadiusLoad "$1" "$2" "${3:-$seconds}" "$subscribers" \
    "$sockets" "$window" 2>/dev/null
}

# Switchboard.
cat > "$work/switchboard.yaml" <<YAML
admin: { enabled: false }
farms:
  aaa:
    reals:
      - { address: 127.0.0.2, port: $port, weight: 1, secret: $real_secret }
      - { address: 127.0.0.3, port: $port, weight: 1, secret: $real_secret }
virtual-servers:
  radius-auth:
    listen: 127.0.0.10:$port
    service: radius
    farm: aaa
    clients: [ { subnet: 127.0.0.0/8, secret: $client_secret } ]
    sticky: { keys: [calling-station-id, username], idle: 1h }
YAML
java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$app_jar" run --config "$work/switchboard.yaml" > "$work/switchboard.log" 2>&1 &
pids+=($!)
wait_udp 127.0.0.10 $port

# FreeRADIUS as a load-balancing proxy.
fr="$work/freeradius"
cp -a /etc/freeradius/3.0 "$fr"
mkdir -p "$fr/log" "$fr/run"
sed -i -e "s|^raddbdir = .*|raddbdir = $fr|" -e "s|^logdir = .*|logdir = $fr/log|" -e "s|^run_dir = .*|run_dir = $fr/run|" \
  -e "s|^\(\s*\)user = freerad|\1#user = freerad|" -e "s|^\(\s*\)group = freerad|\1#group = freerad|" "$fr/radiusd.conf"
rm -f "$fr/mods-enabled/eap" "$fr/sites-enabled/"*
cat > "$fr/clients.conf" <<CONF
client loopback {
	ipaddr = 127.0.0.0/8
	secret = $client_secret
}
CONF
cat > "$fr/proxy.conf" <<CONF
proxy server {
	default_fallback = no
}
home_server r1 {
	type = auth
	ipaddr = 127.0.0.2
	port = $port
	secret = $real_secret
	response_window = 20
	status_check = none
}
home_server r2 {
	type = auth
	ipaddr = 127.0.0.3
	port = $port
	secret = $real_secret
	response_window = 20
	status_check = none
}
home_server_pool responders {
	type = load-balance
	home_server = r1
	home_server = r2
}
realm responders {
	auth_pool = responders
}
CONF
cat > "$fr/sites-enabled/default" <<CONF
server default {
	listen {
		type = auth
		ipaddr = 127.0.0.11
		port = $port
	}
	authorize {
		update control {
			&Proxy-To-Realm := "responders"
		}
	}
	authenticate {
	}
	post-proxy {
	}
	post-auth {
	}
}
CONF
freeradius -C -d "$fr" -n radiusd > /dev/null
freeradius -f -d "$fr" -n radiusd -l "$fr/log/radius.log" > "$work/freeradius.out" 2>&1 &
pids+=($!)
wait_udp 127.0.0.11 $port

echo "RADIUS benchmark: $seconds s per run, $subscribers subscribers, $sockets sockets x $window outstanding, $(nproc) cores"
# Every path gets the same $warmup s of load first, discarded (the JVMs' JIT compilers warm up; the
# director's sticky table fills with the subscribers).
for target in "127.0.0.2:$port,127.0.0.3:$port $real_secret" "127.0.0.10:$port $client_secret" \
              "127.0.0.11:$port $client_secret"; do
  load $target "$warmup" > /dev/null
done
# CPU time (user + system, clock ticks) a process has used so far, threads included.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
responders_ticks() { echo $(( $(ticks "${pids[0]}") + $(ticks "${pids[1]}") )); }
t0=$(responders_ticks)
direct=$(load 127.0.0.2:$port,127.0.0.3:$port $real_secret)
t1=$(responders_ticks)
echo "direct to the responders:        $direct"
s0=$(ticks "${pids[2]}")
director=$(load 127.0.0.10:$port $client_secret)
s1=$(ticks "${pids[2]}")
echo "through the Switchboard director: $director"
f0=$(ticks "${pids[3]}")
proxy=$(load 127.0.0.11:$port $client_secret)
f1=$(ticks "${pids[3]}")
echo "through FreeRADIUS (load-balance): $proxy"
rate() { sed -E 's/^rate=([0-9]+).*/\1/' <<< "$1"; }
answered() { sed -E 's/.*answered=([0-9]+).*/\1/' <<< "$1"; }
awk -v d="$(rate "$direct")" -v s="$(rate "$director")" -v f="$(rate "$proxy")" \
  'BEGIN { printf "director/direct = %.2f, director/FreeRADIUS = %.2f\n", s / d, (f > 0 ? s / f : 0) }'
# CPU per answered request of each middle box (the load's 1 s warm-up included, so slightly high):
# on a shared machine a steadier comparison than the rates, which depend on who else gets the CPU.
awk -v hz="$(getconf CLK_TCK)" -v r="$((t1 - t0))" -v s="$((s1 - s0))" -v f="$((f1 - f0))" \
    -v nd="$(answered "$direct")" -v ns="$(answered "$director")" -v nf="$(answered "$proxy")" \
  'BEGIN { us = 1e6 / hz
           printf "CPU per request: both responders %.1f us (direct run), director %.1f us, FreeRADIUS %.1f us;" \
                  " FreeRADIUS/director = %.2f\n", r * us / nd, s * us / ns, f * us / nf, (f / nf) / (s / ns) }'

if [ -n "${REPLAY_RATE:-}" ]; then
  # The template's destination port must be a RADIUS port for replay to pick the requests out.
  python3 "$here/template.py" "$work/template.pcap" 127.0.0.10 1812
  replay() { # TARGET SECRET
    java -Xmx512m -jar "$app_jar" replay "$work/template.pcap" --to "$1" --rate "$REPLAY_RATE" \
      --duration "${seconds}s" --vary "calling-station-id:$subscribers" --secret "$2" --timeout 2s 2>/dev/null \
      | tail -1 || true
  }
  echo "replay at $REPLAY_RATE/s through the director:   $(replay 127.0.0.10:$port $client_secret)"
  echo "replay at $REPLAY_RATE/s to one responder:        $(replay 127.0.0.2:$port $real_secret)"
fi
