#!/usr/bin/env bash
# bench/simsvc.sh: the round trip of a simulation_interfaces service of ddsim as a ROS 2
# client on Cyclone DDS sees it (interop/ros/cyclone_client.c, rmw_cyclonedds's wire form):
# GetEntities with a regex over a world of N models, called REPEAT times; prints the
# client's p50 and p99. Inside a private network namespace (scripts/netns.sh).
#
# Usage: bench/simsvc.sh        (about 30 s)
#   N=10000        models in the generated world
#   REPEAT=500     calls measured
#   FILTER='m12.*' the regex (111 matches of 10,000)
#
# Needs `make -C interop ros go` (build/cyclone-rosclient, build/ddsim).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ "${DDSGO_NETNS:-}" = 1 ] || exec "$root/scripts/netns.sh" "$0" "$@"
cd "$root"
: "${N:=10000}" "${REPEAT:=500}" "${FILTER:=m12.*}"
for b in interop/build/ddsim interop/build/cyclone-rosclient; do
	[ -x "$b" ] || { echo "simsvc.sh: $b is not built: make -C interop ros go" >&2; exit 2; }
done
dir=$(mktemp -d /tmp/ddsgo-simsvc.XXXXXX)
trap 'rm -rf "$dir"' EXIT
awk -v n="$N" 'BEGIN {
	print "<sdf version=\"1.9\"><world name=\"bench\">"
	for (i = 0; i < n; i++) printf "<model name=\"m%d\"><pose>%d %d 0 0 0 0</pose><link name=\"l\"/></model>\n", i, i % 100, int(i / 100)
	print "</world></sdf>"
}' >"$dir/world.sdf"
timeout 300 interop/build/ddsim -domain 232 "$dir/world.sdf" >"$dir/ddsim.out" 2>&1 &
sim=$!
trap 'kill $sim 2>/dev/null; rm -rf "$dir"' EXIT
timeout 240 interop/build/cyclone-rosclient -domain 232 -filter "$FILTER" -repeat "$REPEAT" -timeout 200 |
	grep '"repeat"' || { echo "simsvc.sh: the client failed; ddsim said:" >&2; cat "$dir/ddsim.out" >&2; exit 1; }
head -1 "$dir/ddsim.out"
