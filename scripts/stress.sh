#!/usr/bin/env bash
# Runs the test suite again and again with -race under several GOMAXPROCS values, to find
# flaky tests: a test that fails once in a hundred runs is a bug (a race, an ordering
# assumption, a timeout that stands for a missing signal), not noise.
#
# Usage: scripts/stress.sh [-n RUNS] [-p "1 2 8"] [-j PASSES] [-t DURATION] [PACKAGES...]
#   -n RUNS      passes per GOMAXPROCS value (default 200)
#   -p LIST      GOMAXPROCS values (default "1 2 8")
#   -j PASSES    passes run at once (default 1)
#   -t DURATION  stop starting new runs after this long (default: no limit), e.g. 30m
#   PACKAGES     default: every package of the module
#
# Each package's test binary is built once (with -race). A pass runs each binary once,
# shuffled, directly, inside a private network namespace of its own; passes run one
# after the other, or -j at once (each in its own namespaces: most of a pass waits on
# timers and peers, about a tenth of two CPUs). The first failure of a package stops
# that package; its output is kept in $OUT/<package>.<GOMAXPROCS>.<pass>.log (OUT
# defaults to a temporary directory, printed at the start). Exit status 1 when any run
# failed.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=200 procs="1 2 8" limit="" jobs=1
while getopts "n:p:j:t:" o; do
	case $o in
	n) runs=$OPTARG ;;
	j) jobs=$OPTARG ;;
	p) procs=$OPTARG ;;
	t) limit=$OPTARG ;;
	*) sed -n '2,20p' "$0"; exit 3 ;;
	esac
done
shift $((OPTIND - 1))
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || mapfile -t pkgs < <(go list ./...)
OUT=${OUT:-$(mktemp -d /tmp/ddsgo-stress.XXXXXX)}
mkdir -p "$OUT"
mapfile -t pkgs < <(go list "${pkgs[@]}")
echo "stress: ${#pkgs[@]} packages, $runs passes per GOMAXPROCS value ($procs), $jobs at once, logs in $OUT"

root=$(pwd)
deadline=0
if [ -n "$limit" ]; then
	case $limit in
	*h) secs=$((${limit%h} * 3600)) ;;
	*m) secs=$((${limit%m} * 60)) ;;
	*s) secs=${limit%s} ;;
	*) secs=$limit ;;
	esac
	deadline=$(($(date +%s) + secs))
fi

bins=()
for pkg in "${pkgs[@]}"; do
	name=${pkg//\//_}
	if go test -race -c -o "$OUT/$name.test" "$pkg" >"$OUT/$name.build.log" 2>&1; then
		[ -f "$OUT/$name.test" ] && bins+=("$pkg")
	else
		cat "$OUT/$name.build.log"
		exit 2
	fi
done

# pass runs each package's binary once under GOMAXPROCS $1 (pass $2), skipping packages
# that failed already; each run adds a line to $OUT/results.
pass() {
	local p=$1 i=$2 pkg name dir log
	for pkg in "${bins[@]}"; do
		name=${pkg//\//_}
		if [ "$deadline" -gt 0 ] && [ "$(date +%s)" -ge "$deadline" ]; then
			return
		fi
		[ -e "$OUT/$name.failed" ] && continue
		dir=$(go list -f '{{.Dir}}' "$pkg")
		log="$OUT/$name.$p.$i.log"
		if (cd "$dir" && GOMAXPROCS=$p "$root/scripts/netns.sh" \
			"$OUT/$name.test" -test.shuffle=on -test.timeout=10m) >"$log" 2>&1; then
			rm -f "$log"
			echo ok >>"$OUT/results"
		else
			touch "$OUT/$name.failed"
			echo "FAIL $pkg" >>"$OUT/results"
			echo "FAIL $pkg GOMAXPROCS=$p run $i: $(grep -m3 -E '^(--- FAIL|panic|FAIL)' "$log" | tr '\n' ' ')"
		fi
	done
}

: >"$OUT/results"
for p in $procs; do
	for ((i = 1; i <= runs; i++)); do
		if [ "$deadline" -gt 0 ] && [ "$(date +%s)" -ge "$deadline" ]; then
			echo "stress: time is up"
			break 2
		fi
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n || true
		done
		pass "$p" "$i" &
	done
done
wait
total=$(wc -l <"$OUT/results")
failed=$(grep -c FAIL "$OUT/results" || true)
echo "stress: $total runs, $failed failed"
[ "$failed" -eq 0 ]
