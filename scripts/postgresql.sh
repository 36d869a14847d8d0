#!/usr/bin/env bash
# Prints the bin directory of a PostgreSQL server (initdb, pg_ctl) for the
# fenced-write acceptance test, installing Debian's postgresql package when the
# machine has none and we are root. The test starts its own throwaway server
# from these binaries; nothing here starts one.
#
# A directory named in POSTGRESQL_BIN wins, and nothing is installed.
set -euo pipefail

has_server() { [ -x "$1/initdb" ] && [ -x "$1/pg_ctl" ]; }
newest() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | while read -r dir; do
  has_server "$dir" && echo "$dir"; done | tail -n1; }

if [ -n "${POSTGRESQL_BIN:-}" ]; then
  has_server "$POSTGRESQL_BIN" || { echo "POSTGRESQL_BIN=$POSTGRESQL_BIN holds no initdb and pg_ctl" >&2; exit 1; }
  echo "$POSTGRESQL_BIN"; exit 0
fi

found=$(newest)
if [ -z "$found" ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "no PostgreSQL server found (initdb, pg_ctl under /usr/lib/postgresql/*/bin): install one" \
         "(Debian: apt-get install postgresql) or set POSTGRESQL_BIN to its bin directory" >&2
    exit 1
  fi
  echo "installing PostgreSQL (Debian's postgresql package) for the fenced-write test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >&2
  apt-get -qq install -y --no-install-recommends postgresql >&2
  found=$(newest)
  [ -n "$found" ] || { echo "the postgresql package installed no initdb and pg_ctl" >&2; exit 1; }
fi
echo "$found"
