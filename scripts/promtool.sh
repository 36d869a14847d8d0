#!/usr/bin/env bash
# Prints the path of Prometheus' own linter, promtool, for the acceptance test
# that runs `promtool check metrics` on a real /metrics scrape. Installs
# Debian's prometheus package (which ships promtool) when it is missing and we
# are root, as scripts/postgresql.sh does for PostgreSQL. Only the binary is
# used: nothing here starts a Prometheus server.
#
# A file named in PROMTOOL wins, and nothing is installed.
set -euo pipefail

if [ -n "${PROMTOOL:-}" ]; then
  [ -x "$PROMTOOL" ] || { echo "PROMTOOL=$PROMTOOL is not an executable" >&2; exit 1; }
  echo "$PROMTOOL"; exit 0
fi

found=$(command -v promtool || true)
if [ -z "$found" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "no promtool found: install it (Debian: apt-get install prometheus) or set PROMTOOL to its path" >&2
    exit 1
  fi
  echo "installing Debian's prometheus package for promtool (the metric names check)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >&2
  apt-get -qq install -y --no-install-recommends prometheus >&2
  found=$(command -v promtool || true)
  [ -n "$found" ] || { echo "the prometheus package installed no promtool" >&2; exit 1; }
fi
echo "$found"
