#!/usr/bin/env bash
# Runs the whole test suite: unit, architecture and acceptance tests. The
# acceptance tests start their own nats-server processes (a 2.11+ one and a
# pre-2.11 one for the `unsupported` path), which this script fetches first,
# and one throwaway PostgreSQL (the fenced-write test), installed when missing,
# and the power-loss test's lazy filesystem (FUSE), installed when missing; if
# it cannot be, that test says so on one line and skips. The metrics test parses
# a /metrics scrape with the Prometheus Python client's parser, installed when
# missing, and Prometheus' linter (promtool, Debian's prometheus package, installed
# when missing) checks the names in a scrape; the same package's Prometheus server
# (scripts/prometheus.sh) scrapes dagnats and runs the Grafana dashboard's queries. The Go first-lease example
# (docs/examples/go/first-lease) is built with Debian's Go toolchain and nats.go
# packages (scripts/go.sh installs them when missing) and run against a real
# dagnats. The published libraries are deployed to a file repository under
# target/, and a user's project built against it and run (acceptance-tests' *IT).
# The profile image builds the container image (image/target/dagnats-image.tar,
# its base from Debian's packages: scripts/image-base.sh) and runs its test, in a
# container where podman can (scripts/podman.sh installs it), else outside one.
# First, scripts/check-examples.sh validates the deployment examples.
#
#   scripts/test.sh                 everything
#   scripts/test.sh -pl domain      extra arguments go to Maven
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh
NATS_SERVER_BIN=$(scripts/nats-server.sh)
NATS_SERVER_LEGACY_BIN=$(scripts/nats-server.sh legacy)
POSTGRESQL_BIN=$(scripts/postgresql.sh)
LAZYFS_COMMAND=$(scripts/fuse.sh) || LAZYFS_COMMAND=""
PROMETHEUS_PARSER=$(scripts/prometheus-parser.sh)
PROMTOOL=$(scripts/promtool.sh)
PROMETHEUS=$(scripts/prometheus.sh)
GO_BIN=$(scripts/go.sh)
export NATS_SERVER_BIN NATS_SERVER_LEGACY_BIN POSTGRESQL_BIN LAZYFS_COMMAND PROMETHEUS_PARSER PROMTOOL PROMETHEUS GO_BIN
echo "test servers: $("$NATS_SERVER_BIN" --version) and $("$NATS_SERVER_LEGACY_BIN" --version)"
echo "test database: $("$POSTGRESQL_BIN/postgres" --version)"
scripts/check-examples.sh
scripts/podman.sh

# Maven's deploy plugin refuses to run offline, even to the file repository
# acceptance-tests' *IT read: offline, deploy nothing (those tests skip).
offline=()
for arg in "$@"; do
  case "$arg" in
    -o|--offline) offline=(-Dmaven.deploy.skip=true) ;;
  esac
done

exec mvn -B -ntp verify -Pimage "${offline[@]}" "$@"
