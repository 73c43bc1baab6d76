#!/usr/bin/env bash
# The IPsec underlay of IpsecUnderlayIT: three namespaces a, b, c on one bridge (in namespace l),
# 10.99.0.1, .2, .3/24. a and b share transport-mode ESP SAs (AES-GCM, RFC 4106) and each requires
# ESP from every other address of the subnet; c has no keys.
# Usage: underlay.sh probe SUFFIX (exit 3: this kernel has no ESP) | up SUFFIX | down SUFFIX
set -euo pipefail
cmd=$1 sfx=$2
ns() { echo "sbx-$sfx-$1"; }
if [ "$cmd" = probe ]; then
  ip netns add "$(ns p)"
  ok=0
  ip -n "$(ns p)" xfrm state add src 10.99.0.1 dst 10.99.0.2 proto esp spi 0x100 mode transport \
    enc 'cbc(aes)' 0x00112233445566778899aabbccddeeff auth-trunc 'hmac(sha256)' \
    0x00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff 128 2>&1 || ok=3
  ip netns del "$(ns p)"
  exit $ok
fi
if [ "$cmd" = down ]; then
  for n in a b c l; do ip netns del "$(ns $n)" 2>/dev/null || true; done
  exit 0
fi
for n in a b c l; do ip netns add "$(ns $n)"; done
ip -n "$(ns l)" link add br0 type bridge
ip -n "$(ns l)" link set br0 up
i=1
for n in a b c; do
  ip link add "sbx$sfx$n" type veth peer name eth0 netns "$(ns $n)"
  ip link set "sbx$sfx$n" netns "$(ns l)"
  ip -n "$(ns l)" link set "sbx$sfx$n" master br0 up
  ip -n "$(ns $n)" addr add "10.99.0.$i/24" dev eth0
  ip -n "$(ns $n)" link set eth0 up
  ip -n "$(ns $n)" link set lo up
  i=$((i + 1))
done
# Fresh keys per run and per direction: AES-128-CBC (RFC 3602) with HMAC-SHA-256-128 (RFC 4868),
# which every kernel with ESP has (AES-GCM, RFC 4106, is what strongSwan would pick where loaded).
key() { echo "0x$(od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n')"; }
eab=$(key 16) aab=$(key 32) eba=$(key 16) aba=$(key 32)
for n in a b; do
  x="ip -n $(ns $n) xfrm"
  $x state add src 10.99.0.1 dst 10.99.0.2 proto esp spi 0x00000a01 reqid 1 mode transport \
    enc 'cbc(aes)' "$eab" auth-trunc 'hmac(sha256)' "$aab" 128
  $x state add src 10.99.0.2 dst 10.99.0.1 proto esp spi 0x00000b01 reqid 2 mode transport \
    enc 'cbc(aes)' "$eba" auth-trunc 'hmac(sha256)' "$aba" 128
done
for pair in "a 10.99.0.1 10.99.0.2 1 2" "b 10.99.0.2 10.99.0.1 2 1"; do
  set -- $pair
  x="ip -n $(ns $1) xfrm policy"
  # A namespace's traffic to its own address (over lo) needs no ESP: a policy without a template passes it.
  $x add src "$2/32" dst "$2/32" dir in priority 50
  $x add src "$2/32" dst "$2/32" dir out priority 50
  $x add src "$2/32" dst "$3/32" dir out priority 100 tmpl src "$2" dst "$3" proto esp reqid "$4" mode transport
  $x add src "$3/32" dst "$2/32" dir in priority 100 tmpl src "$3" dst "$2" proto esp reqid "$5" mode transport
  # Everything else of the subnet must come in as ESP too (and nothing goes out to it in clear):
  # a namespace without the keys reaches neither member.
  $x add src 10.99.0.0/24 dst "$2/32" dir in priority 200 tmpl proto esp mode transport
  $x add src "$2/32" dst 10.99.0.0/24 dir out priority 200 tmpl proto esp mode transport
done
