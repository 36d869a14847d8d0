#!/usr/bin/env bash
# Makes sure the metrics acceptance test can parse a /metrics scrape with a real
# Prometheus parser: the Python client's (prometheus_client.parser), which it
# runs through scripts/parse-prometheus.py. Installs Debian's
# python3-prometheus-client when it is missing and we are root, as
# scripts/fuse.sh does for FUSE. Prints the command to run the parser with, on
# one line.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The Python that apt-get serves is /usr/bin/python3, whatever else is first on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
ready() { "$python" -c 'import prometheus_client.parser' >/dev/null 2>&1; }

if ! ready; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "no prometheus_client for $python: install it (Debian: apt-get install python3-prometheus-client)" >&2
    exit 1
  fi
  echo "installing Debian's python3-prometheus-client for the metrics scrape test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >&2
  apt-get -qq install -y --no-install-recommends python3-prometheus-client >&2
  ready || { echo "installed python3-prometheus-client, but $python still cannot import it" >&2; exit 1; }
fi
echo "$python $root/scripts/parse-prometheus.py"
