#!/bin/sh
# run.sh [options] PUB SUB [ARGS...]   (options may also follow PUB SUB)
#
# Runs one interop scenario inside a private network namespace (netns.sh):
# a subscriber and a publisher, each given "-role sub|pub" and ARGS, then
# checks that both exited 0 and printed the same lines (compared sorted: a
# reader may deliver different instances in another order).
#
#   PUB, SUB   cyclone | fastdds | go | path to a peer binary
#              (go = interop/build/go-peer, the future ddsgo peer)
# options:
#   -P ARGS    extra arguments for the publisher only (one string, split on blanks)
#   -S ARGS    extra arguments for the subscriber only
#   -d SEC     start the publisher first and the subscriber SEC seconds later
#              (late joiner: give the publisher -wait-readers 0 and a -linger)
#   -o DIR     keep pub.out, sub.out, pub.err, sub.err in DIR (default: temp dir)
#   -c FILE    capture UDP on lo with dumpcap into FILE (pcapng) during the run
#   -x         do not compare the outputs (keep-last, lossy best effort...)
#   -q         print only the verdict line
# Exit status: 0 when both peers succeeded (and outputs match), 1 otherwise,
# 2 for bad usage.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
-h | --help | "")
	sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
	;;
esac

# Everything below runs in a private namespace holding only loopback.
if ! "$here/netns.sh" --check; then
	exec "$here/netns.sh" "$0" "$@"
fi
"$here/netns.sh" true # bring lo up, multicast route

# run.sh options may appear anywhere; no peer flag is a single letter.
pub_extra= sub_extra= delay= outdir= capture= compare=1 quiet=
n=$#
while [ $n -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	-P | -S | -d | -o | -c)
		[ $n -gt 0 ] || { echo "run.sh: $a needs a value" >&2; exit 2; }
		v=$1
		shift
		n=$((n - 1))
		case $a in
		-P) pub_extra=$v ;;
		-S) sub_extra=$v ;;
		-d) delay=$v ;;
		-o) outdir=$v ;;
		-c) capture=$v ;;
		esac
		;;
	-x) compare= ;;
	-q) quiet=1 ;;
	*) set -- "$@" "$a" ;;
	esac
done
[ $# -ge 2 ] || { echo "run.sh: need PUB and SUB" >&2; exit 2; }

peer() {
	case $1 in
	cyclone) echo "$here/build/cyclone-peer" ;;
	fastdds) echo "$here/build/fastdds-peer" ;;
	go) echo "$here/build/go-peer" ;;
	*) echo "$1" ;;
	esac
}
pubname=$1 subname=$2
pub=$(peer "$1")
sub=$(peer "$2")
shift 2
for b in "$pub" "$sub"; do
	[ -x "$b" ] || { echo "run.sh: $b missing (run make in $here)" >&2; exit 2; }
done

if [ -z "$outdir" ]; then
	outdir=$(mktemp -d /tmp/interop.XXXXXX)
	trap 'rm -rf "$outdir"' EXIT
fi
mkdir -p "$outdir"

cap_pid=
if [ -n "$capture" ]; then
	rm -f "$capture"
	dumpcap -q -i lo -f udp -w "$capture" 2>"$outdir/dumpcap.err" &
	cap_pid=$!
	i=0
	until grep -q "Capturing on" "$outdir/dumpcap.err" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 100 ] || ! kill -0 $cap_pid 2>/dev/null; then
			echo "run.sh: dumpcap did not start:" >&2
			cat "$outdir/dumpcap.err" >&2
			exit 1
		fi
		sleep 0.05
	done
fi

start_sub() {
	# shellcheck disable=SC2086
	"$sub" -role sub "$@" $sub_extra >"$outdir/sub.out" 2>"$outdir/sub.err" &
	sub_pid=$!
}
start_pub() {
	# shellcheck disable=SC2086
	"$pub" -role pub "$@" $pub_extra >"$outdir/pub.out" 2>"$outdir/pub.err" &
	pub_pid=$!
}
if [ -n "$delay" ]; then
	start_pub "$@"
	sleep "$delay"
	start_sub "$@"
else
	start_sub "$@"
	start_pub "$@"
fi
pub_rc=0 sub_rc=0
wait $pub_pid || pub_rc=$?
wait $sub_pid || sub_rc=$?

if [ -n "$cap_pid" ]; then
	sleep 0.2
	kill -INT $cap_pid
	wait $cap_pid || true
fi

verdict=PASS
why=
[ $pub_rc -eq 0 ] || { verdict=FAIL; why="$why pub exit $pub_rc;"; }
[ $sub_rc -eq 0 ] || { verdict=FAIL; why="$why sub exit $sub_rc;"; }
if [ -n "$compare" ]; then
	sort "$outdir/pub.out" >"$outdir/pub.sorted"
	sort "$outdir/sub.out" >"$outdir/sub.sorted"
	if ! cmp -s "$outdir/pub.sorted" "$outdir/sub.sorted"; then
		verdict=FAIL
		why="$why outputs differ;"
	fi
fi
lines=$(wc -l <"$outdir/sub.out")
echo "$verdict $pubname -> $subname ($lines lines received)${why:+:$why} args: $* ${pub_extra:+pub: $pub_extra }${sub_extra:+sub: $sub_extra}"
if [ "$verdict" = FAIL ] && [ -z "$quiet" ]; then
	for f in pub.err sub.err; do
		[ -s "$outdir/$f" ] && { echo "--- $f"; tail -n 20 "$outdir/$f"; }
	done
	if [ -n "$compare" ]; then
		echo "--- diff (sorted pub.out vs sub.out, first lines)"
		diff "$outdir/pub.sorted" "$outdir/sub.sorted" | cut -c1-200 | head -n 10
	fi
fi
[ "$verdict" = PASS ]
