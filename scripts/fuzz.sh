#!/usr/bin/env bash
# Runs every fuzz target of the module for a fixed number of executions (default 100000
# each, a few seconds). A count, not a duration: with a duration, Go 1.26's fuzz
# coordinator can report its own stop deadline as a failure ("context deadline
# exceeded", no crasher; golang/go#75804, fixed in Go 1.27), which failed CI once.
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-100000x}
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		s=$(date +%s)
		scripts/netns.sh go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" >/tmp/ddsgo-fuzz.log 2>&1 ||
			{ cat /tmp/ddsgo-fuzz.log; exit 1; }
		echo "fuzz: $pkg $target ($t): $(($(date +%s) - s)) s"
	done
done
