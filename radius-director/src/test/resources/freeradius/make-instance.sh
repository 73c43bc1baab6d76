#!/usr/bin/env bash
# Builds a self-contained FreeRADIUS 3.2 configuration directory for one test instance, copied from
# the Debian package's /etc/freeradius/3.0: listens only on ADDRESS:AUTH_PORT (auth) and
# ADDRESS:ACCT_PORT (acct), knows CLIENTS (a subnet, 127.0.0.0/8 by default) with SECRET, accepts every user whose password is
# "testpw" with Reply-Message "served by NAME" (and a salt-encrypted Tunnel-Password "tunnel-pw-NAME"), logs every authentication (with the
# Calling-Station-Id) to DIR/log/radius.log and every accounting request to DIR/log/radacct/.
# Starts nothing: run `freeradius -f -d DIR -n radiusd -l DIR/log/radius.log` afterwards.
#
# REQUIRE_MA is the client's require_message_authenticator (no by default); LIMIT_PROXY_STATE, when
# given, its limit_proxy_state (FreeRADIUS 3.2.5 and later: older versions do not know it).
#
# usage: make-instance.sh DIR NAME ADDRESS AUTH_PORT ACCT_PORT SECRET [CLIENTS [REQUIRE_MA [LIMIT_PROXY_STATE]]]
set -euo pipefail
dir=$1 name=$2 address=$3 auth_port=$4 acct_port=$5 secret=$6 clients=${7:-127.0.0.0/8} require_ma=${8:-no}
limit_proxy_state=${9:-}
src=/etc/freeradius/3.0
[ -d "$src" ] || { echo "make-instance.sh: $src missing (apt-get install freeradius)" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$dir"
cp -a "$src/." "$dir/"
mkdir -p "$dir/log/radacct" "$dir/run"

# Paths into the copy; no proxying; root keeps its user; authentications logged.
sed -i \
  -e "s|^raddbdir = .*|raddbdir = $dir|" \
  -e "s|^logdir = .*|logdir = $dir/log|" \
  -e "s|^run_dir = .*|run_dir = $dir/run|" \
  -e "s|^proxy_requests *= .*|proxy_requests = no|" \
  -e "s|^\(\s*\)user = freerad|\1#user = freerad|" \
  -e "s|^\(\s*\)group = freerad|\1#group = freerad|" \
  -e "s|^\(\s*\)auth = no|\1auth = yes|" \
  "$dir/radiusd.conf"

# No EAP (no certificates in a fresh install), no inner tunnel (binds 127.0.0.1:18120 everywhere).
rm -f "$dir/mods-enabled/eap" "$dir/sites-enabled/"*

cat > "$dir/clients.conf" <<CLIENTS
client director {
	ipaddr = $clients
	secret = $secret
	require_message_authenticator = $require_ma
${limit_proxy_state:+	limit_proxy_state = $limit_proxy_state}
}
CLIENTS

cat > "$dir/mods-config/files/authorize" <<USERS
DEFAULT Cleartext-Password := "testpw"
	Reply-Message := "served by $name",
	Tunnel-Password := "tunnel-pw-$name"
USERS

cat > "$dir/sites-enabled/default" <<SITE
server default {
	listen {
		type = auth
		ipaddr = $address
		port = $auth_port
	}
	listen {
		type = acct
		ipaddr = $address
		port = $acct_port
	}
	authorize {
		files
		pap
	}
	authenticate {
		Auth-Type PAP {
			pap
		}
	}
	preacct {
	}
	accounting {
		detail
		ok
	}
	post-auth {
	}
}
SITE
freeradius -C -d "$dir" -n radiusd >/dev/null
