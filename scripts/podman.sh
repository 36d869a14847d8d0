#!/usr/bin/env bash
# Makes sure the image test can run the image in a container: Debian's podman,
# and runc, which the test hands podman where podman's own crun cannot start a
# container (on these machines crun stops at setrlimit and at cgroups in hybrid
# mode). Installs them when one is missing and we are root, as
# scripts/postgresql.sh does for PostgreSQL. Never fatal: without them the test
# runs the image's entrypoint outside a container, and says so.
set -uo pipefail

command -v podman >/dev/null 2>&1 && command -v runc >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "no podman and runc: the image test runs the image outside a container (Debian: apt-get install podman runc)" >&2
  exit 0
fi
echo "installing podman and runc (Debian's packages) for the image test" >&2
export DEBIAN_FRONTEND=noninteractive
if ! { apt-get -qq update && apt-get -qq install -y podman runc; } >&2; then
  echo "podman and runc could not be installed: the image test runs the image outside a container" >&2
fi
exit 0
