#!/usr/bin/env bash
# Runs a command inside a private network namespace with only loopback, multicast routed to
# it. Nothing inside can reach any other network: every socket test of ddsgo runs this way.
# Usage: scripts/netns.sh CMD [ARGS...]
set -euo pipefail
if [ "${DDSGO_NETNS:-}" = "1" ]; then
	exec "$@" # already inside one
fi
exec unshare -n -- bash -c '
	set -e
	ip link set lo up
	ip link set lo multicast on
	ip route add 224.0.0.0/4 dev lo
	export DDSGO_NETNS=1 GOPROXY=off GOFLAGS=-mod=readonly
	exec "$@"
' netns "$@"
