#!/usr/bin/env bash
# Makes sure the power-loss test's lazy filesystem (scripts/lazyfs.py) can run:
# Python's fusepy, libfuse 2 (which fusepy loads) and fusermount. Installs
# Debian's fuse3, libfuse2 and python3-fusepy when one is missing and we are
# root, as scripts/postgresql.sh does for PostgreSQL. Prints the Python to run
# it with and the path of lazyfs.py, on one line. Whether the kernel lets us mount (/dev/fuse, permission) is for
# the test to find out: it says so on one line and skips.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# Debian's package installs the module as fusepy, pip's as fuse; the Python
# that apt-get serves is /usr/bin/python3, whatever else is first on PATH.
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
ready() {
  "$python" -c 'import importlib.util as u, sys; sys.exit(0 if u.find_spec("fusepy") or u.find_spec("fuse") else 1)' \
      >/dev/null 2>&1 && command -v fusermount >/dev/null 2>&1
}

if ! ready; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "no fusepy or fusermount found: install them (Debian: apt-get install fuse3 libfuse2 python3-fusepy)" >&2
    exit 1
  fi
  echo "installing FUSE (Debian's fuse3, libfuse2, python3-fusepy) for the power-loss test" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -qq update >&2
  # Debian 13 names libfuse 2 libfuse2t64; either provides libfuse.so.2.
  libfuse=libfuse2
  apt-cache show libfuse2t64 >/dev/null 2>&1 && libfuse=libfuse2t64
  apt-get -qq install -y --no-install-recommends fuse3 "$libfuse" python3-fusepy >&2
  ready || { echo "installed FUSE, but python3 still cannot import fuse or no fusermount is on PATH" >&2; exit 1; }
fi
echo "$python $root/scripts/lazyfs.py"
