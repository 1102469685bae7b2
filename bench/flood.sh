#!/usr/bin/env bash
# What a participant holds under a flood of forged discovery data, ddsgo against Cyclone DDS
# and Fast DDS: each vendor's interop peer (a subscriber that waits for a writer that never
# comes) is the victim, interop/cmd/flood the flood, inside a private network namespace.
# Prints, per victim, its RSS and anonymous memory before, at the peak of and after the
# flood, and the CPU it spent during it.
#
#   bench/flood.sh                         10,000 participants at 10,000 datagrams/s for 20 s
#   PARTS=200 EPS=50 bench/flood.sh        200 participants with 50 writers each
#   VICTIMS="go cyclone" SECS=10 bench/flood.sh
#
# Needs the peers (make -C interop). LEASE (10 s) is the forged participants' lease: AFTER
# (15 s) after the flood, every vendor has let them go.
set -euo pipefail
cd "$(dirname "$0")/.."
PARTS=${PARTS:-10000} EPS=${EPS:-0} RATE=${RATE:-10000} SECS=${SECS:-20} LEASE=${LEASE:-10s} AFTER=${AFTER:-15}
VICTIMS=${VICTIMS:-"go cyclone fastdds"}
go build -o /tmp/ddsgo-flood ./interop/cmd/flood
make -s -C interop >/dev/null
if [ "${DDSGO_NETNS:-}" != "1" ]; then
	exec scripts/netns.sh env PARTS="$PARTS" EPS="$EPS" RATE="$RATE" SECS="$SECS" LEASE="$LEASE" AFTER="$AFTER" VICTIMS="$VICTIMS" "$0"
fi

mem() { # RSS and anonymous memory of pid $1, in MiB
	awk '/^VmRSS:/ {r=$2} /^RssAnon:/ {a=$2} END {printf "%.1f %.1f", r/1024, a/1024}' "/proc/$1/status"
}
cpu() { # user+system CPU seconds of pid $1
	awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14+$15)/hz}' "/proc/$1/stat"
}

printf '| victim | before: RSS / anon MiB | peak | end of flood | %s s after | CPU s during the flood |\n|---|---|---|---|---|---|\n' "$AFTER"
domain=90
for v in $VICTIMS; do
	domain=$((domain + 1))
	interop/build/$v-peer -role sub -domain $domain -topic flood_victim -count 1 -timeout 600 >/dev/null 2>&1 &
	pid=$!
	sleep 2
	before=$(mem $pid)
	c0=$(cpu $pid)
	/tmp/ddsgo-flood -domain $domain -participants "$PARTS" -endpoints "$EPS" -rate "$RATE" -duration "${SECS}s" -lease "$LEASE" >/dev/null &
	fpid=$!
	peak_r=0 peak_a=0
	while kill -0 $fpid 2>/dev/null; do
		read -r r a <<<"$(mem $pid)"
		if awk -v x="$r" -v y="$peak_r" 'BEGIN {exit !(x > y)}'; then peak_r=$r; fi
		if awk -v x="$a" -v y="$peak_a" 'BEGIN {exit !(x > y)}'; then peak_a=$a; fi
		sleep 0.5
	done
	wait $fpid
	c1=$(cpu $pid)
	end=$(mem $pid)
	sleep "$AFTER"
	after=$(mem $pid)
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	printf '| %s | %s | %s / %s | %s | %s | %s |\n' "$v" "${before/ / \/ }" "$peak_r" "$peak_a" "${end/ / \/ }" "${after/ / \/ }" \
		"$(awk -v a="$c0" -v b="$c1" 'BEGIN {printf "%.2f", b - a}')"
done
