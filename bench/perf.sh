#!/usr/bin/env bash
# bench/perf.sh: ddsgo's ddsping against Cyclone DDS's ddsperf, side by side, inside one
# private network namespace (scripts/netns.sh): round trips at 16 B, 1 KiB, 16 KiB and
# 64 KiB (reliable), ddsping against ddsperf in both directions at 16 B, reliable
# throughput from 16 B to 4 MiB with the CPU time per sample received (publisher and
# subscriber together) and the kernel's UDP receive-buffer drops (RcvbufErrors of
# /proc/net/snmp, which counts this namespace only), and the RSS and CPU time of an idle
# participant. Prints Markdown tables of medians and the ratio ddsgo/Cyclone. Every round
# trip is a whole one (ddsperf prints halves: doubled here).
#
# Usage: bench/perf.sh            (about 4 minutes)
#   SECS=5     seconds per run
#   REPS=1     runs per cell (the table shows the median of the runs)
#   SIZES="16 1024 16384 65536"   round-trip payload sizes
#   TPSIZES="16 1024 65536 1048576 4194304"   throughput payload sizes
#   XSIZES="16"                   round-trip sizes of the cross pairings (ddsping ping with
#                                 ddsperf pong, ddsperf ping with ddsping pong)
#   BUSYPOLL=-1ns                 add round-trip columns with ddsping -busy-poll $BUSYPOLL on
#                                 both sides (rtps.Config.BusyPoll; -1ns: no poll, beside the
#                                 default adaptive one; 500us: a fixed poll; empty: no columns)
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
TPSIZES=${TPSIZES:-"16 1024 65536 1048576 4194304"}
XSIZES=${XSIZES:-"16"}
NCPU=${NCPU:-1}
BUSYPOLL=${BUSYPOLL--1ns}
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

# ddsperf_pct PCT FILE: the median of the per-second PCT-th percentiles of the round trip
# (µs; PCT is 50 or 99), skipping the first second. ddsperf prints half the round trip
# ((now - ping's timestamp) / 2 in process_pong of src/tools/ddsperf/ddsperf.c): doubled
# here, so that both columns are whole round trips.
ddsperf_pct() {
	{ grep -o " $1% [0-9.]*us" "$2" || true; } | skip1 | sed "s/ $1% //; s/us//" | awk '{print 2 * $1}' | median
}

# ddsping_pct PCT FILE: the same from ddsping ping -json interval lines.
ddsping_pct() {
	{ grep '"t":' "$2" || true; } | skip1 | { grep -o "\"p$1_ns\":[0-9]*" || true; } | cut -d: -f2 |
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
	ddsperf_pct 99 "$f" >>"$OUT/p99-ddsperf-$2-$1"
	ddsperf_pct 50 "$f"
}

rtt_ddsping() { # SIZE PROCS(0: ddsping's default) REP [BUSYPOLL]
	local f="$OUT/rtt-ddsping-p$2-$1-$3${4:+-bp}.txt"
	pair "$OUT/pong.txt" "$f" 0 "$BIN" pong -procs "$2" -busy-poll "${4:-0}" -duration $((SECS + 2))s -- "$BIN" ping -procs "$2" -busy-poll "${4:-0}" -size "$1" -duration "${SECS}s" -json
	ddsping_pct 99 "$f" >>"$OUT/p99-ddsping-p$2-$1${4:+-bp}"
	ddsping_pct 50 "$f"
}

rtt_ddsping_bp() { rtt_ddsping "$1" 0 "$2" "$BUSYPOLL"; } # SIZE REP

# Cross pairings: ddsping ping against ddsperf pong, and ddsperf ping against ddsping
# pong (each finds the other with no flag).
rtt_ping_ddsperf() { # SIZE REP
	local f="$OUT/rtt-ping-ddsperf-$1-$2.txt"
	pair "$OUT/pong.txt" "$f" 0.3 ddsperf -D$((SECS + 2)) pong -- "$BIN" ping -size "$1" -duration "${SECS}s" -json
	ddsping_pct 50 "$f"
}

rtt_ddsperf_pong() { # SIZE REP
	local f="$OUT/rtt-ddsperf-pong-$1-$2.txt"
	pair "$OUT/pong.txt" "$f" 0.3 "$BIN" pong -duration $((SECS + 2))s -- ddsperf -D"$SECS" ping size "$1"
	ddsperf_pct 50 "$f"
}

# TIMED is a bash -c script: "bash -c "$TIMED" FILE CMD..." runs CMD and writes to
# FILE.times what the times builtin reports of it (user and system CPU).
TIMED='"$@"; times >"$0.times"'

# cpu_of FILE: the CPU seconds FILE.times reports of the command (0 when absent).
cpu_of() {
	{ tail -1 "$1.times" 2>/dev/null || echo "0m0s 0m0s"; } | sed 's/m/ /g; s/s//g' | awk '{print $1 * 60 + $2 + $3 * 60 + $4}'
	rm -f "$1.times"
}

# udp_rcvbuf_errors prints the kernel's count of UDP datagrams dropped for a full
# receive buffer in this namespace.
udp_rcvbuf_errors() { awk '/^Udp:/ { if (h) print $6; h = 1 }' /proc/net/snmp; }

# tp_stats NAME SAMPLES RCVBUF0 SUBFILE: appends to NAME.stats the CPU µs per sample
# received (publisher and subscriber, from SUBFILE.times and $OUT/pub.txt.times) and the
# receive-buffer drops since RCVBUF0.
tp_stats() {
	local cpu
	cpu=$(awk -v a="$(cpu_of "$4")" -v b="$(cpu_of "$OUT/pub.txt")" 'BEGIN {print a + b}')
	awk -v c="$cpu" -v n="$2" -v e="$(($(udp_rcvbuf_errors) - $3))" \
		'BEGIN { if (n > 0) printf "%.2f %d\n", c * 1e6 / n, e; else printf "- %d\n", e }' >>"$1.stats"
}

tp_ddsperf() { # SIZE REP
	local f="$OUT/tp-ddsperf-$1-$2.txt" e0
	e0=$(udp_rcvbuf_errors)
	pair "$f" "$OUT/pub.txt" 0.3 bash -c "$TIMED" "$f" ddsperf -D$((SECS + 2)) sub -- bash -c "$TIMED" "$OUT/pub.txt" ddsperf -D"$SECS" pub size "$1"
	tp_stats "$OUT/tp-ddsperf-$1" "$({ grep -o 'total [0-9]*' "$f" || echo 'total 0'; } | tail -1 | cut -d' ' -f2)" "$e0" "$f"
	ddsperf_rate "$f"
}

tp_ddsping() { # SIZE PROCS REP
	local f="$OUT/tp-ddsping-p$2-$1-$3.txt" e0
	e0=$(udp_rcvbuf_errors)
	pair "$f" "$OUT/pub.txt" 0.3 bash -c "$TIMED" "$f" "$BIN" sub -procs "$2" -duration $((SECS + 2))s -json -- bash -c "$TIMED" "$OUT/pub.txt" "$BIN" pub -procs "$2" -size "$1" -duration "${SECS}s"
	tp_stats "$OUT/tp-ddsping-p$2-$1" "$({ tail -1 "$f" | grep -o '"samples":[0-9]*' || echo ':0'; } | cut -d: -f2)" "$e0" "$f"
	ddsping_rate "$f"
}

# stats_cell NAME: the median CPU µs per sample and the largest receive-buffer drop
# count of the runs of a throughput cell, as "cpu drops".
stats_cell() {
	local f="$OUT/$1.stats"
	echo "$(cut -d' ' -f1 "$f" | { grep -v '^-$' || true; } | median) $(cut -d' ' -f2 "$f" | sort -g | tail -1)"
}

# ticks PID: the CPU clock ticks (utime + stime, fields 14 and 15 of /proc/PID/stat,
# counted from the end of the command name, which may hold spaces) PID has used.
ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{print $12 + $13}'; }

# idle NAME CMD...: runs CMD, an idle participant, for SECS + 2 seconds and prints its
# RSS and, of it, its anonymous memory (MiB; the rest are the pages of its executable and
# libraries, shared and reclaimable) at the end and the CPU milliseconds it used per
# second after its first one, read from /proc.
idle() {
	local name=$1 tpid pid t0 rss t
	shift
	timeout $BOUND "$@" >"$OUT/idle-$name.txt" 2>&1 &
	tpid=$!
	sleep 1
	pid=$(cut -d' ' -f1 "/proc/$tpid/task/$tpid/children" 2>/dev/null || true)
	if [ -z "$pid" ] || ! t0=$(ticks "$pid"); then
		echo "- - -"
		wait $tpid || true
		return
	fi
	sleep "$SECS"
	rss=$(awk '/^VmRSS:/ {r = $2} /^RssAnon:/ {a = $2} END {printf "%.1f %.1f", r / 1024, a / 1024}' "/proc/$pid/status")
	t=$(ticks "$pid" | awk -v t0="$t0" -v hz="$(getconf CLK_TCK)" -v s="$SECS" '{printf "%.1f", ($1 - t0) * 1000 / hz / s}')
	echo "$rss $t"
	wait $tpid || true
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
hdr="| payload | ddsping p50 | ddsperf (listener) p50 | ratio | ddsping p99 | ddsperf (listener) p99 | ratio | ddsperf waitset p50 | ratio"
if [ -n "$BUSYPOLL" ]; then hdr="$hdr | busy-poll p50 | ratio | busy-poll p99 | ratio"; fi
table "Round trip, reliable, medians of the per-second p50 and p99 (µs; median of the runs; busy-poll: ddsping -busy-poll $BUSYPOLL on both sides):" "$hdr"
for s in $SIZES; do
	g=$(cell rtt_ddsping "$s" 0)
	c=$(cell rtt_ddsperf "$s" listener)
	cw=$(cell rtt_ddsperf "$s" waitset)
	g99=$({ grep -v '^-$' "$OUT/p99-ddsping-p0-$s" || true; } | median)
	c99=$({ grep -v '^-$' "$OUT/p99-ddsperf-listener-$s" || true; } | median)
	line="| $s B | $g | $c | $(ratio "$g" "$c") | $g99 | $c99 | $(ratio "$g99" "$c99") | $cw | $(ratio "$g" "$cw")"
	if [ -n "$BUSYPOLL" ]; then
		b=$(cell rtt_ddsping_bp "$s")
		b99=$({ grep -v '^-$' "$OUT/p99-ddsping-p0-$s-bp" || true; } | median)
		line="$line | $b | $(ratio "$b" "$c") | $b99 | $(ratio "$b99" "$c99")"
	fi
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
table "Throughput, reliable KEEP_ALL, median of the per-second receive rates (samples/s); CPU µs per sample received, publisher and subscriber together (median of the runs); kernel receive-buffer drops (largest of the runs):" \
	"| payload | ddsping pub/sub | ddsperf pub/sub | ratio | ddsping MB/s | ddsperf MB/s | ddsping CPU µs | ddsperf CPU µs | ddsping drops | ddsperf drops"
num() { printf '%.0f' "$1" 2>/dev/null || echo "$1"; }
mb() { awk -v r="$1" -v s="$2" 'BEGIN { if (r == "-") print "-"; else printf "%.0f\n", r * s / 1e6 }'; }
for s in $TPSIZES; do
	g=$(cell tp_ddsping "$s" 0)
	c=$(cell tp_ddsperf "$s")
	read -r gc gd <<<"$(stats_cell "tp-ddsping-p0-$s")"
	read -r cc cd <<<"$(stats_cell "tp-ddsperf-$s")"
	line="| $s B | $(num "$g") | $(num "$c") | $(ratio "$g" "$c") | $(mb "$g" "$s") | $(mb "$c" "$s") | $gc | $cc | $gd | $cd"
	if [ "$NCPU" = 1 ]; then
		g1=$(cell tp_ddsping "$s" "$(nproc)")
		line="$line | $(num "$g1") | $(ratio "$g1" "$c")"
	fi
	echo "$line |"
done
printf '\nIdle participant (nothing matched): RSS MiB after %s s (anonymous: not the pages of the program and its libraries), CPU ms per second after the first:\n\n' "$((SECS + 1))"
printf '| participant | RSS MiB | anonymous MiB | CPU ms/s |\n|---|---|---|---|\n'
read -r r a t <<<"$(idle ddsping "$BIN" sub -duration $((SECS + 2))s)"
echo "| ddsping sub | $r | $a | $t |"
read -r r a t <<<"$(idle ddsperf ddsperf -D$((SECS + 2)) sub)"
echo "| ddsperf sub | $r | $a | $t |"
