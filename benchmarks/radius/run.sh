#!/usr/bin/env bash
# RADIUS director benchmark, one run (docs/radius.md "RADIUS benchmark"). Every path is driven by the
# project's load tool, `switchboard replay`, closed loop (SOCKETS sockets, WINDOW requests in flight
# in all), from the template access-request.pcap (one Access-Request with User-Name, User-Password,
# Calling-Station-Id and Message-Authenticator; made by `/usr/bin/python3 template.py access-request.pcap
# 127.0.0.10 1812`, checked with `tshark -r access-request.pcap -V`) with
# --vary calling-station-id:SUBSCRIBERS and re-signed with --secret:
#   0. the generator's own ceiling: against a trivial UDP echo (io.switchboard.bench.UdpEcho, two
#      SO_REUSEPORT sockets);
#   1. directly to two responders (RadiusResponder; two replay processes, each with half the sockets
#      and half the window, one per responder, their rates added);
#   2. the same load through the Switchboard RADIUS director in front of the same two responders
#      (client and real secrets differ: User-Password re-hidden, Message-Authenticator and the
#      answers re-signed; sticky by Calling-Station-Id);
#   3. the same load through FreeRADIUS 3.2 as a load-balance home_server_pool proxy in front of them.
# Then the ratios director/direct, director/FreeRADIUS, ceiling/director, and each middle box's CPU
# per request. Everything on loopback: responders NET.2/.3, echo NET.9, director NET.10, FreeRADIUS
# NET.11 (NET default 127.0.0); replay's sockets are on 127.0.0.1. With BASELINE_JAR=path/to/an/older/
# switchboard.jar a second director from that jar (NET.12) is measured in the same run (before/after). Every process it starts is stopped
# by pid. Needs freeradius (apt-get install freeradius).
# TRANSPORT=epoll|io_uring|nio sets the director's `transport` (default: the key left out, epoll);
# AB_TRANSPORT=io_uring adds a second director from the same jar on that transport (NET.14), measured
# in the same run, for a transport A/B with the same load and noise; SYSCALLS=RATE then counts each
# director's system calls per answered request at RATE/s open loop (lib.sh `syscalls`, perf trace).
#
# usage: benchmarks/radius/run.sh [SECONDS] [SUBSCRIBERS] [SOCKETS] [WINDOW]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds=${1:-10} warmup=${WARMUP:-15} subscribers=${2:-100000} sockets=${3:-8} window=${4:-256}
net=${NET:-127.0.0}
work=$(mktemp -d /tmp/radius-bench.XXXXXX)
replay_args=(--vary "calling-station-id:$subscribers")
. "$here/../lib.sh"
# The template's destination port (1812) tells replay the requests are RADIUS; --to overrides the rest.
template="$here/access-request.pcap"
port=31812
client_secret=client-secret
real_secret=real-secret

$(pin responder) java -Xmx128m -cp "$bench_jar" io.switchboard.bench.UdpEcho $net.9 $port 2 > "$work/echo.log" 2>&1 &
pids+=($!)
wait_udp $net.9 $port
for a in $net.2 $net.3; do
  $(pin responder) java -Xmx256m -cp "$bench_jar" io.switchboard.bench.radius.RadiusResponder $a $port $real_secret \
    > "$work/responder-$a.log" 2>&1 &
  pids+=($!)
  wait_udp $a $port
done

# Switchboard: DIRECTOR JAR ADDRESS NAME [TRANSPORT]; the pid is in director_pid.
director() {
  cat > "$work/$3.yaml" <<YAML
${4:+transport: $4}
admin: { enabled: false }
farms:
  aaa:
    reals:
      - { address: $net.2, port: $port, weight: 1, secret: $real_secret }
      - { address: $net.3, port: $port, weight: 1, secret: $real_secret }
virtual-servers:
  radius-auth:
    listen: $2:$port
    service: radius
    farm: aaa
    clients: [ { subnet: 127.0.0.0/8, secret: $client_secret } ]
    sticky: { keys: [calling-station-id, username], idle: 1h }
YAML
  $(pin middle) java ${SWITCHBOARD_JAVA_OPTS:--Xmx1g} -jar "$1" run --config "$work/$3.yaml" > "$work/$3.log" 2>&1 &
  director_pid=$!
  pids+=($director_pid)
  wait_udp $2 $port
}
director "$app_jar" $net.10 switchboard "${TRANSPORT:-}"
switchboard_pid=$director_pid
if [ -n "${AB_TRANSPORT:-}" ]; then
  director "$app_jar" $net.14 ab "$AB_TRANSPORT"
  ab_pid=$director_pid
fi
if [ -n "${BASELINE_JAR:-}" ]; then
  director "$BASELINE_JAR" $net.12 baseline
  baseline_pid=$director_pid
fi

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
	ipaddr = $net.2
	port = $port
	secret = $real_secret
	response_window = 20
	status_check = none
}
home_server r2 {
	type = auth
	ipaddr = $net.3
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
		ipaddr = $net.11
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
$(pin middle) freeradius -f -d "$fr" -n radiusd -l "$fr/log/radius.log" > "$work/freeradius.out" 2>&1 &
freeradius_pid=$!
pids+=($freeradius_pid)
wait_udp $net.11 $port

echo "RADIUS benchmark: $seconds s per run, $subscribers subscribers, replay with $sockets sockets," \
  "$window in flight (closed loop), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), $(pin_note)"
echo_path="$net.9:$port --secret $client_secret"
direct_path="$net.2:$port,$net.3:$port --secret $real_secret"
director_path="$net.10:$port --secret $client_secret"
proxy_path="$net.11:$port --secret $client_secret"
baseline_path="$net.12:$port --secret $client_secret"
ab_path="$net.14:$port --secret $client_secret"
# Every path gets the same $warmup s of load first, discarded (the JVMs' JIT compilers warm up; the
# director's sticky table fills with the subscribers).
warm=("$echo_path" "$direct_path" "$director_path" "$proxy_path")
if [ -n "${BASELINE_JAR:-}" ]; then warm+=("$baseline_path"); fi
if [ -n "${AB_TRANSPORT:-}" ]; then warm+=("$ab_path"); fi
for p in "${warm[@]}"; do
  path ${p%% *} "$warmup" closed ${p#* } > /dev/null
done
responders_ticks() { echo $(( $(ticks "${pids[1]}") + $(ticks "${pids[2]}") )); }
ceiling=$(path ${echo_path%% *} "$seconds" closed ${echo_path#* })
show "generator ceiling (UDP echo)" "$ceiling"
t0=$(responders_ticks)
direct=$(path ${direct_path%% *} "$seconds" closed ${direct_path#* })
t1=$(responders_ticks)
show "direct to the responders" "$direct"
s0=$(ticks "$switchboard_pid")
director=$(path ${director_path%% *} "$seconds" closed ${director_path#* })
s1=$(ticks "$switchboard_pid")
show "through the Switchboard director" "$director"
if [ -n "${BASELINE_JAR:-}" ]; then
  b0=$(ticks "$baseline_pid")
  baseline=$(path ${baseline_path%% *} "$seconds" closed ${baseline_path#* })
  b1=$(ticks "$baseline_pid")
  show "through the baseline director" "$baseline"
fi
if [ -n "${AB_TRANSPORT:-}" ]; then
  a0=$(ticks "$ab_pid")
  ab=$(path ${ab_path%% *} "$seconds" closed ${ab_path#* })
  a1=$(ticks "$ab_pid")
  show "through the director on $AB_TRANSPORT" "$ab"
fi
f0=$(ticks "$freeradius_pid")
proxy=$(path ${proxy_path%% *} "$seconds" closed ${proxy_path#* })
f1=$(ticks "$freeradius_pid")
show "through FreeRADIUS (load-balance)" "$proxy"
ratio "director/direct" "${director%% *}" "${direct%% *}"
ratio "director/FreeRADIUS" "${director%% *}" "${proxy%% *}"
if [ -n "${BASELINE_JAR:-}" ]; then
  ratio "baseline/direct" "${baseline%% *}" "${direct%% *}"
  ratio "director/baseline" "${director%% *}" "${baseline%% *}"
  awk -v hz="$(getconf CLK_TCK)" -v b="$((b1 - b0))" -v nb="$(cut -d' ' -f5 <<< "$baseline")" \
    'BEGIN { printf "CPU per request: baseline director %.1f us\n", b * 1e6 / hz / nb }'
fi
ratio "generator ceiling/director" "${ceiling%% *}" "${director%% *}"
ratio "generator ceiling/direct" "${ceiling%% *}" "${direct%% *}"
# CPU per answered request of each middle box: on a shared machine a steadier comparison than the
# rates, which depend on who else gets the CPU.
answered() { cut -d' ' -f5 <<< "$1"; }
awk -v hz="$(getconf CLK_TCK)" -v r="$((t1 - t0))" -v s="$((s1 - s0))" -v f="$((f1 - f0))" \
    -v nd="$(answered "$direct")" -v ns="$(answered "$director")" -v nf="$(answered "$proxy")" \
  'BEGIN { us = 1e6 / hz
           printf "CPU per request: both responders %.1f us (direct run), director %.1f us, FreeRADIUS %.1f us;" \
                  " FreeRADIUS/director = %.2f\n", r * us / nd, s * us / ns, f * us / nf, (f / nf) / (s / ns) }'
if [ -n "${AB_TRANSPORT:-}" ]; then
  ratio "$AB_TRANSPORT/${TRANSPORT:-epoll} rate" "${ab%% *}" "${director%% *}"
  awk -v hz="$(getconf CLK_TCK)" -v a="$((a1 - a0))" -v na="$(answered "$ab")" -v s="$((s1 - s0))" \
      -v ns="$(answered "$director")" -v t="$AB_TRANSPORT" -v e="${TRANSPORT:-epoll}" \
    'BEGIN { printf "CPU per request: director on %s %.1f us, on %s %.1f us; %s/%s = %.2f\n", t, a * 1e6 / hz / na,
             e, s * 1e6 / hz / ns, t, e, (a / na) / (s / ns) }'
fi
if [ -n "${SYSCALLS:-}" ]; then
  rate=0
  syscalls "director (${TRANSPORT:-epoll})" "$switchboard_pid" "${director_path%% *}" "$seconds" "$SYSCALLS" \
    ${director_path#* }
  if [ -n "${AB_TRANSPORT:-}" ]; then
    syscalls "director ($AB_TRANSPORT)" "$ab_pid" "${ab_path%% *}" "$seconds" "$SYSCALLS" ${ab_path#* }
  fi
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
