#!/usr/bin/env bash
# Prints the path of a Prometheus server binary, for the acceptance test that
# starts one, has it scrape a real dagnats and runs every query of the Grafana
# dashboard (docs/examples/grafana/dagnats-leases.json) against it. Debian's
# prometheus package ships it beside promtool: scripts/promtool.sh installs
# that package when it is missing and we are root.
#
# A file named in PROMETHEUS wins, and nothing is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${PROMETHEUS:-}" ]; then
  [ -x "$PROMETHEUS" ] || { echo "PROMETHEUS=$PROMETHEUS is not an executable" >&2; exit 1; }
  echo "$PROMETHEUS"; exit 0
fi

found=$(command -v prometheus || true)
if [ -z "$found" ]; then
  scripts/promtool.sh >/dev/null
  found=$(command -v prometheus || true)
  [ -n "$found" ] || { echo "no prometheus found: install it (Debian: apt-get install prometheus) or set PROMETHEUS to its path" >&2; exit 1; }
fi
echo "$found"
