#!/usr/bin/env bash
# Runs a command inside a private network namespace with only loopback, multicast routed to
# it. Nothing inside can reach any other network: every socket test of ddsgo runs this way.
# Usage: scripts/netns.sh [--own] CMD [ARGS...]
#
# Inside a namespace already (DDSGO_NETNS=1) it runs CMD there, unless --own asks for a
# namespace of CMD's own, nested in the current one: `go test -exec 'scripts/netns.sh --own'`
# gives each package's test binary its own network, so that packages testing in parallel
# never see each other's participants, whatever domains they use.
set -euo pipefail
own=0
if [ "${1:-}" = "--own" ]; then
	own=1
	shift
fi
if [ "${DDSGO_NETNS:-}" = "1" ] && [ "$own" = 0 ]; then
	exec "$@" # already inside one
fi
exec unshare -n -- bash -c '
	set -e
	ip link set lo up
	ip link set lo multicast on
	ip route add 224.0.0.0/4 dev lo
	# Ephemeral ports above the RTPS ports of the domains the tests use (7400 + 250 d + 2 i:
	# up to 59,000 for domain 206): by default Linux hands out 32768-60999, and a socket
	# bound to, say, 35900 would take domain 114'"'"'s port from a participant of the same
	# network.
	echo "59500 60999" > /proc/sys/net/ipv4/ip_local_port_range
	export DDSGO_NETNS=1 GOPROXY=off GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly"
	exec "$@"
' netns "$@"
