#!/usr/bin/env bash
# bench/perf.sh: ddsgo's ddsping against Cyclone DDS's ddsperf, side by side, inside one
# private network namespace (scripts/netns.sh): round trips at 16 B, 1 KiB, 16 KiB and
# 64 KiB (reliable), ddsping against ddsperf in both directions at 16 B, and reliable
# throughput at 1 KiB and 64 KiB. Prints a Markdown table of medians and the ratio
# ddsgo/Cyclone. Every round trip is a whole one (ddsperf prints halves: doubled here).
#
# Usage: bench/perf.sh            (about 2 minutes)
#   SECS=5     seconds per run
#   REPS=1     runs per cell (the table shows the median of the runs)
#   SIZES="16 1024 16384 65536"   round-trip payload sizes
#   TPSIZES="1024 65536"          throughput payload sizes
#   XSIZES="16"                   round-trip sizes of the cross pairings (ddsping ping with
#                                 ddsperf pong, ddsperf ping with ddsping pong)
#   NCPU=1                        add columns with ddsping under GOMAXPROCS=$(nproc) (its
#                                 default is GOMAXPROCS=1, see ddsping's documentation)
#   OUT=dir                       keep the raw outputs there (default: a temp dir)
#
# Needs Go and ddsperf (Debian package cyclonedds-tools). Every run is bounded in time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${DDSGO_NETNS:-}" != "1" ]; then
	exec scripts/netns.sh "$0" "$@"
fi

SECS=${SECS:-5}
REPS=${REPS:-1}
SIZES=${SIZES:-"16 1024 16384 65536"}
TPSIZES=${TPSIZES:-"1024 65536"}
XSIZES=${XSIZES:-"16"}
NCPU=${NCPU:-1}
unset GOMAXPROCS
OUT=${OUT:-$(mktemp -d /tmp/ddsgo-perf.XXXXXX)}
mkdir -p "$OUT"
command -v ddsperf >/dev/null || { echo "perf.sh: ddsperf not found (apt-get install cyclonedds-tools)" >&2; exit 2; }

BIN="$OUT/ddsping"
go build -o "$BIN" ./cmd/ddsping
BOUND=$((SECS + 15)) # hard limit of every process

# median reads numbers, one per line, and prints their median ("-" when none).
median() {
	sort -g | awk '{v[NR] = $1} END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# skip1 drops the first line (the second of discovery and warm-up) unless it is the only
# one; trim drops the first and the last (partial seconds) unless fewer than three.
skip1() { awk '{v[NR] = $0} END {for (i = (NR > 1 ? 2 : 1); i <= NR; i++) print v[i]}'; }
trim() { awk '{v[NR] = $0} END {a = 1; b = NR; if (NR > 2) {a = 2; b = NR - 1}; for (i = a; i <= b; i++) print v[i]}'; }

# ddsperf_p50 FILE: the median of the per-second round-trip medians (µs), skipping the
# first second. ddsperf prints half the round trip ((now - ping's timestamp) / 2 in
# process_pong of src/tools/ddsperf/ddsperf.c): doubled here, so that both columns are
# whole round trips.
ddsperf_p50() {
	{ grep -o ' 50% [0-9.]*us' "$1" || true; } | skip1 | sed 's/ 50% //; s/us//' | awk '{print 2 * $1}' | median
}

# ddsping_p50 FILE: the same from ddsping ping -json interval lines.
ddsping_p50() {
	{ grep '"t":' "$1" || true; } | skip1 | { grep -o '"p50_ns":[0-9]*' || true; } | cut -d: -f2 |
		awk '{printf "%.1f\n", $1 / 1000}' | median
}

# ddsperf_rate FILE: the median of the per-second receive rates (samples/s), without the
# first and the last (partial) seconds.
ddsperf_rate() {
	{ grep -o 'rate [0-9.]* kS/s' "$1" || true; } | awk '{print $2 * 1000}' | trim | median
}

# ddsping_rate FILE: the same from ddsping sub -json interval lines.
ddsping_rate() {
	{ grep '"t":' "$1" || true; } | { grep -o '"samples_per_s":[0-9.e+]*' || true; } | cut -d: -f2 | trim | median
}

# pair SERVER_OUT CLIENT_OUT PAUSE SERVER... -- CLIENT...: runs the server in the
# background, the client PAUSE seconds later, then waits for the server; each bounded
# in time, with its output in its file.
pair() {
	local sout=$1 cout=$2 pause=$3 server=()
	shift 3
	while [ "$1" != "--" ]; do
		server+=("$1")
		shift
	done
	shift
	timeout $BOUND "${server[@]}" >"$sout" 2>&1 &
	local pid=$!
	if [ "$pause" != 0 ]; then sleep "$pause"; fi
	timeout $BOUND "$@" >"$cout" 2>&1 || true
	wait $pid || true
}

rtt_ddsperf() { # SIZE MODE(listener|waitset) REP
	local f="$OUT/rtt-ddsperf-$2-$1-$3.txt"
	pair "$OUT/pong.txt" "$f" 0.3 ddsperf -D$((SECS + 2)) pong "$2" -- ddsperf -D"$SECS" ping size "$1" "$2"
	ddsperf_p50 "$f"
}

rtt_ddsping() { # SIZE PROCS(0: ddsping's default) REP
	local f="$OUT/rtt-ddsping-p$2-$1-$3.txt"
	pair "$OUT/pong.txt" "$f" 0 "$BIN" pong -procs "$2" -duration $((SECS + 2))s -- "$BIN" ping -procs "$2" -size "$1" -duration "${SECS}s" -json
	ddsping_p50 "$f"
}

# Cross pairings: ddsping ping against ddsperf pong, and ddsperf ping against ddsping
# pong (each finds the other with no flag).
rtt_ping_ddsperf() { # SIZE REP
	local f="$OUT/rtt-ping-ddsperf-$1-$2.txt"
	pair "$OUT/pong.txt" "$f" 0.3 ddsperf -D$((SECS + 2)) pong -- "$BIN" ping -size "$1" -duration "${SECS}s" -json
	ddsping_p50 "$f"
}

rtt_ddsperf_pong() { # SIZE REP
	local f="$OUT/rtt-ddsperf-pong-$1-$2.txt"
	pair "$OUT/pong.txt" "$f" 0.3 "$BIN" pong -duration $((SECS + 2))s -- ddsperf -D"$SECS" ping size "$1"
	ddsperf_p50 "$f"
}

tp_ddsperf() { # SIZE REP
	local f="$OUT/tp-ddsperf-$1-$2.txt"
	pair "$f" "$OUT/pub.txt" 0.3 ddsperf -D$((SECS + 2)) sub -- ddsperf -D"$SECS" pub size "$1"
	ddsperf_rate "$f"
}

tp_ddsping() { # SIZE PROCS REP
	local f="$OUT/tp-ddsping-p$2-$1-$3.txt"
	pair "$f" "$OUT/pub.txt" 0.3 "$BIN" sub -procs "$2" -duration $((SECS + 2))s -json -- "$BIN" pub -procs "$2" -size "$1" -duration "${SECS}s"
	ddsping_rate "$f"
}

# cell FUNC ARGS...: the median over REPS runs.
cell() {
	local fn=$1
	shift
	for r in $(seq "$REPS"); do "$fn" "$@" "$r"; done | { grep -v '^-$' || true; } | median
}

# table TITLE HEAD: a blank line, TITLE, a blank line and the head of a Markdown table
# with the columns of HEAD ("| a | b"), plus the GOMAXPROCS columns when NCPU=1.
table() {
	local hdr=$2
	if [ "$NCPU" = 1 ]; then hdr="$hdr | ddsping GOMAXPROCS=$(nproc) | ratio"; fi
	printf '\n%s\n\n%s |\n%s|\n' "$1" "$hdr" "$(sed 's/|[^|]*/|---/g' <<<"$hdr")"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f\n", a / b }'; }

echo "# ddsgo ddsping vs Cyclone DDS ddsperf, $(date -u +%Y-%m-%d), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# $(dpkg-query -W -f='cyclonedds-tools ${Version}' cyclonedds-tools 2>/dev/null || echo ddsperf), $(go version | cut -d' ' -f3), ${SECS} s per run, ${REPS} run(s) per cell, raw output in $OUT"
table "Round trip, reliable, median of the per-second medians (µs):" \
	"| payload | ddsping | ddsperf (listener) | ratio | ddsperf waitset | ratio"
for s in $SIZES; do
	g=$(cell rtt_ddsping "$s" 0)
	c=$(cell rtt_ddsperf "$s" listener)
	cw=$(cell rtt_ddsperf "$s" waitset)
	line="| $s B | $g | $c | $(ratio "$g" "$c") | $cw | $(ratio "$g" "$cw")"
	if [ "$NCPU" = 1 ]; then
		g1=$(cell rtt_ddsping "$s" "$(nproc)")
		line="$line | $g1 | $(ratio "$g1" "$c")"
	fi
	echo "$line |"
done
table "Round trip across, reliable, median of the per-second medians (µs; ddsping's -size against ddsperf is ddsperf's size, 12 bytes of header included):" \
	"| payload | ddsping ping, ddsperf pong | ddsperf ping, ddsping pong"
for s in $XSIZES; do
	a=$(cell rtt_ping_ddsperf "$s")
	b=$(cell rtt_ddsperf_pong "$s")
	line="| $s B | $a | $b"
	if [ "$NCPU" = 1 ]; then line="$line | - | -"; fi
	echo "$line |"
done
table "Throughput, reliable KEEP_ALL, median of the per-second receive rates (samples/s):" \
	"| payload | ddsping pub/sub | ddsperf pub/sub | ratio | ddsping MB/s | ddsperf MB/s"
num() { printf '%.0f' "$1" 2>/dev/null || echo "$1"; }
mb() { awk -v r="$1" -v s="$2" 'BEGIN { if (r == "-") print "-"; else printf "%.0f\n", r * s / 1e6 }'; }
for s in $TPSIZES; do
	g=$(cell tp_ddsping "$s" 0)
	c=$(cell tp_ddsperf "$s")
	line="| $s B | $(num "$g") | $(num "$c") | $(ratio "$g" "$c") | $(mb "$g" "$s") | $(mb "$c" "$s")"
	if [ "$NCPU" = 1 ]; then
		g1=$(cell tp_ddsping "$s" "$(nproc)")
		line="$line | $(num "$g1") | $(ratio "$g1" "$c")"
	fi
	echo "$line |"
done
