#!/usr/bin/env bash
# Prints the path of a Go toolchain for the acceptance test that runs the Go
# first-lease example (docs/examples/go/first-lease) against a real dagnats.
# Installs Debian's golang-go and its nats.go package
# (golang-github-nats-io-go-nats-dev, under /usr/share/gocode) when either is
# missing and we are root, as scripts/promtool.sh does for promtool. The test
# builds with GOPATH=/usr/share/gocode and GOFLAGS=-mod=off, so nothing is
# downloaded.
#
# A file named in GO_BIN wins, and nothing is installed.
set -euo pipefail

nats_go=/usr/share/gocode/src/github.com/nats-io/nats.go

if [ -n "${GO_BIN:-}" ]; then
  [ -x "$GO_BIN" ] || { echo "GO_BIN=$GO_BIN is not an executable" >&2; exit 1; }
  echo "$GO_BIN"; exit 0
fi

found=$(command -v go || true)
if [ -z "$found" ] || [ ! -d "$nats_go" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "no Go toolchain with nats.go found: install them (Debian: apt-get install golang-go" \
         "golang-github-nats-io-go-nats-dev) or set GO_BIN to a go binary" >&2
    exit 1
  fi
  echo "installing Debian's golang-go and nats.go packages for the Go first-lease example test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >&2
  apt-get -qq install -y --no-install-recommends golang-go golang-github-nats-io-go-nats-dev >&2
  found=$(command -v go || true)
  [ -n "$found" ] || { echo "the golang-go package installed no go binary" >&2; exit 1; }
  [ -d "$nats_go" ] || { echo "the nats.go package installed nothing under $nats_go" >&2; exit 1; }
fi
echo "$found"
