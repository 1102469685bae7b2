#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian 12 machine: the real peers (Cyclone DDS and
# Fast DDS, from Debian's packages), tshark, iproute2; the Go modules; the pinned linters.
# Idempotent: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

pkgs=(
	iproute2 util-linux tshark build-essential pkg-config
	cyclonedds-tools libddsc0debian cyclonedds-dev
	libfastrtps-dev libfastcdr-dev fastddsgen fastdds-tools default-jre-headless
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	echo "deps: installing ${missing[*]}"
	$sudo apt-get update -q
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >/dev/null
fi

go mod download
if [ -f bench/ecs/go.mod ]; then (cd bench/ecs && go mod download); fi

gobin=$(go env GOPATH)/bin
want_gofumpt=v0.12.0
want_golangci=v2.15.0
[ -x "$gobin/gofumpt" ] && "$gobin/gofumpt" --version 2>/dev/null | grep -q "$want_gofumpt" ||
	go install "mvdan.cc/gofumpt@$want_gofumpt"
[ -x "$gobin/golangci-lint" ] && "$gobin/golangci-lint" version 2>/dev/null | grep -q "${want_golangci#v}" ||
	go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$want_golangci"
