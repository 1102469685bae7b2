#!/usr/bin/env bash
# Runs every fuzz target of the module for a short time (default 10s each).
set -euo pipefail
cd "$(dirname "$0")/.."
t=${1:-10s}
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u); do
		echo "fuzz: $pkg $target ($t)"
		scripts/netns.sh go test -run '^$' -fuzz "^${target}\$" -fuzztime "$t" "$pkg" >/tmp/ddsgo-fuzz.log 2>&1 ||
			{ cat /tmp/ddsgo-fuzz.log; exit 1; }
	done
done
