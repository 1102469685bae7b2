#!/bin/sh
# netns.sh CMD [ARGS...]: run CMD inside a fresh private network namespace
# holding only loopback, with multicast enabled and routed to lo. If the
# current namespace already has no interface up besides lo, CMD runs here
# (after bringing lo up). "netns.sh --check" exits 0 only when the current
# namespace is such a private one.
# Needs root (or an unprivileged user namespace: set NETNS_USERNS=1).
set -eu
[ $# -gt 0 ] || { echo "usage: $0 CMD [ARGS...]" >&2; exit 2; }

in_private_ns() {
	# every interface that is UP must be lo
	for f in /sys/class/net/*; do
		n=${f##*/}
		[ "$n" = lo ] && continue
		if [ "$(cat "$f/operstate" 2>/dev/null)" != down ] &&
			ip link show "$n" 2>/dev/null | grep -q '[<,]UP[,>]'; then
			return 1
		fi
	done
	return 0
}

if [ "$1" = --check ]; then
	in_private_ns
	exit
fi

if in_private_ns; then
	ip link set lo up
	ip link set lo multicast on
	ip route replace 224.0.0.0/4 dev lo 2>/dev/null || true
	exec "$@"
fi

userns=
[ "${NETNS_USERNS:-}" = 1 ] && userns=-r
exec unshare $userns -n "$0" "$@"
