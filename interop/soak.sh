#!/usr/bin/env bash
# soak.sh [-d DUR] [-i DUR] [-c SEC] [-D DOMAIN] [-o DIR]
#
# A soak run inside a private network namespace (netns.sh): mixed traffic for DUR
# while the runtime figures of the long-lived ddsgo peers are recorded, then a
# verdict on whether they stayed flat after warm-up.
#
# Long-lived ddsgo peers (interop/build/go-peer with -stats), reliable, volatile:
#   pubA  topic soak_small: 16 keys, 16-byte payload, 50 samples/s, KEEP_LAST 32
#   pubB  topic soak_frag: 2 keys, 100 000-byte payload (fragmented), 5 samples/s,
#         KEEP_LAST 4
#   subA, subB  subscribers of soak_small and soak_frag (KEEP_ALL)
# Churn: every SEC seconds (default 3) a short-lived peer joins, exchanges a bounded
# number of samples and leaves, in turn Cyclone DDS, Fast DDS and ddsgo, subscriber
# and publisher, on soak_small (20 or 40 samples) and on soak_frag (4 samples): the
# long-lived peers see participants, readers and writers come and go all the time.
#
# Verdict (exit 0 only when all hold):
#   - every peer, long-lived or churn, exits 0 (the long-lived ones are stopped with
#     SIGTERM at the end, after the last churn peer has finished);
#   - soakcheck (interop/cmd/soakcheck) finds every long-lived peer flat: with T the
#     run's length, the medians of the last quarter [3T/4, T] against those of the
#     second quarter [T/4, T/2): goroutines at most +5, fds and sockets at most +2,
#     heap in use and RSS at most x1.25 + 4 MiB; every stats interval after the first
#     sample adds samples (publishers kept writing, subscribers kept receiving); no
#     socket left open after the participant is closed.
#
# options:
#   -d DUR     length of the run: seconds or with unit s, m, h (default 10m)
#   -i DUR     stats period (default: the run's length / 100, at least 1 s)
#   -c SEC     a churn peer every SEC seconds (default 3)
#   -D DOMAIN  domain id (default 90)
#   -o DIR     keep the stats, logs and stderr of every peer in DIR, and the tables
#              in Markdown (tables.md) (default: a temporary directory, removed)
# Needs interop/build/{cyclone,fastdds}-peer (make -C interop); builds go-peer and
# soakcheck itself. Exit status: 0 flat and no failure, 1 otherwise, 2 bad usage.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	sed -n '2,36p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# seconds DUR: whole seconds of 90, 90s, 10m, 1h
seconds() {
	case $1 in
	*[!0-9smh]* | "" | [smh]*) echo "soak.sh: bad duration $1" >&2; exit 2 ;;
	*h) echo $((${1%h} * 3600)) ;;
	*m) echo $((${1%m} * 60)) ;;
	*s) echo "${1%s}" ;;
	*) echo "$1" ;;
	esac
}

dur=600 period= churn=3 domain=90 outdir=
while getopts d:i:c:D:o:h opt; do
	case $opt in
	d) dur=$(seconds "$OPTARG") ;;
	i) period=$(seconds "$OPTARG") ;;
	c) churn=$(seconds "$OPTARG") ;;
	D) domain=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) usage ;;
	esac
done
[ $# -eq $((OPTIND - 1)) ] || usage
[ "$dur" -ge 20 ] || { echo "soak.sh: -d must be at least 20 s" >&2; exit 2; }
[ -n "$period" ] || period=$((dur / 100 > 1 ? dur / 100 : 1))

if ! "$here/netns.sh" --check; then
	exec "$here/netns.sh" "$0" "$@"
fi
# go build needs no network when the module cache holds the dependencies.
(cd "$here/.." && go build -o interop/build/go-peer ./interop/cmd/interop-peer &&
	go build -o interop/build/soakcheck ./interop/cmd/soakcheck)
"$here/netns.sh" true # lo up, multicast route

bin=$here/build
for b in cyclone-peer fastdds-peer go-peer soakcheck; do
	[ -x "$bin/$b" ] || { echo "soak.sh: $bin/$b missing (make -C $here)" >&2; exit 2; }
done
tmpdir=
if [ -z "$outdir" ]; then
	outdir=$(mktemp -d /tmp/soak.XXXXXX)
	tmpdir=$outdir
fi
declare -A pids
churn_pids=()
# Interrupted or failed: leave no peer behind.
cleanup() {
	local p
	for p in "${pids[@]}" "${churn_pids[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
	done
	[ -z "$tmpdir" ] || rm -rf "$tmpdir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$outdir/churn"
: >"$outdir/churn.log"

small="-topic soak_small -keys 16"
frag="-topic soak_frag -keys 2 -payload 100000"
common="-domain $domain -quiet -reliable -volatile"
long="$common -count 100000000 -timeout $((dur + 300))s -stats $period"

start_long() { # NAME ARGS...
	local name=$1
	shift
	# shellcheck disable=SC2086
	"$bin/go-peer" "$@" -stats-file "$outdir/$name.stats" >/dev/null 2>"$outdir/$name.err" &
	pids[$name]=$!
}
# shellcheck disable=SC2086
{
	start_long subA -role sub $small $long
	start_long subB -role sub $frag $long
	start_long pubA -role pub $small $long -keep-last 32 -rate 50
	start_long pubB -role pub $frag $long -keep-last 4 -rate 5
}

vendors=(cyclone fastdds go)
churn_one() { # I: the I-th churn peer
	local i=$1 vendor=${vendors[$(($1 % 3))]} role topic args
	role=$([ $(($1 / 3 % 2)) -eq 0 ] && echo sub || echo pub)
	topic=$([ $(($1 / 6 % 2)) -eq 0 ] && echo small || echo frag)
	case $role/$topic in
	sub/small) args="$small -count 40 -linger 0.5s" ;;
	sub/frag) args="$frag -count 4 -linger 0.5s" ;;
	pub/small) args="-topic soak_small -keys 4 -count 20 -rate 20" ;;
	pub/frag) args="$frag -count 4 -rate 4" ;;
	esac
	local t0=$SECONDS rc=0
	# shellcheck disable=SC2086
	"$bin/$vendor-peer" -role $role $common $args -timeout 30s >/dev/null 2>"$outdir/churn/$i.err" || rc=$?
	echo "$i $vendor $role $topic $rc $((SECONDS - t0))" >>"$outdir/churn.log"
}

echo "soak: ${dur}s, stats every ${period}s, a churn peer every ${churn}s, domain $domain, output in $outdir"
start=$SECONDS
i=0
while [ $((SECONDS - start)) -lt "$dur" ]; do
	churn_one $i &
	churn_pids+=($!)
	i=$((i + 1))
	sleep "$churn"
done
for p in "${churn_pids[@]}"; do wait "$p" || true; done
churn_pids=()

rc_long=0
for name in pubA pubB subA subB; do
	kill -TERM "${pids[$name]}" 2>/dev/null || true
	rc=0
	wait "${pids[$name]}" || rc=$?
	unset "pids[$name]"
	if [ $rc -ne 0 ]; then
		echo "FAIL long-lived $name exited $rc:"
		tail -n 5 "$outdir/$name.err"
		rc_long=1
	fi
done

echo "churn peers (vendor role topic: ok/all, seconds min-max):"
awk '{k=$2" "$3" "$4; n[k]++; if ($5==0) ok[k]++; if (!(k in lo) || $6<lo[k]) lo[k]=$6; if ($6>hi[k]) hi[k]=$6}
	END {for (k in n) printf "  %-22s %d/%d  %d-%ds\n", k, ok[k], n[k], lo[k], hi[k]}' "$outdir/churn.log" | sort
rc_churn=0
while read -r n vendor role topic rc secs; do
	[ "$rc" -eq 0 ] && continue
	rc_churn=1
	echo "FAIL churn $n $vendor $role $topic exited $rc after ${secs}s:"
	tail -n 3 "$outdir/churn/$n.err" | sed 's/^/    /'
done <"$outdir/churn.log"

rc_flat=0
stats="$outdir/pubA.stats $outdir/pubB.stats $outdir/subA.stats $outdir/subB.stats"
# shellcheck disable=SC2086
"$bin/soakcheck" $stats || rc_flat=1
# shellcheck disable=SC2086
"$bin/soakcheck" -md $stats >"$outdir/tables.md" || true

if [ $rc_long -eq 0 ] && [ $rc_churn -eq 0 ] && [ $rc_flat -eq 0 ]; then
	echo "PASS soak ${dur}s: $i churn peers, long-lived peers flat"
	exit 0
fi
why=
[ $rc_long -eq 0 ] || why="$why long-lived peer failed;"
[ $rc_churn -eq 0 ] || why="$why churn peer failed;"
[ $rc_flat -eq 0 ] || why="$why not flat;"
echo "FAIL soak ${dur}s:$why"
exit 1
