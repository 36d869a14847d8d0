#!/usr/bin/env bash
# Prints the path of a nats-server binary of the wanted line, fetching it into
# the git-ignored .tools/ folder when the machine has none.
#
#   scripts/nats-server.sh          a server with per-message TTL (2.11 or newer)
#   scripts/nats-server.sh legacy   a server older than 2.11 (for the `unsupported` path)
#
# A binary named in NATS_SERVER_BIN (modern) or NATS_SERVER_LEGACY_BIN (legacy)
# wins over both the PATH and .tools/, and nothing is fetched.
#
# Packages come from the machine's own Debian mirror, as configured in
# /etc/apt/sources.list.d: the suite is swapped, nothing is installed system-wide.
set -euo pipefail

want=${1:-modern}
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$root/.tools"

version_of() { "$1" --version 2>/dev/null | sed -n 's/.*v\([0-9][0-9.]*\).*/\1/p' | head -n1; }
is_modern() { # 2.11 or newer
  local v; v=$(version_of "$1"); [ -n "$v" ] || return 1
  local major=${v%%.*} rest=${v#*.}; local minor=${rest%%.*}
  [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 11 ]; }
}

case "$want" in
  modern) suite=sid named=${NATS_SERVER_BIN:-} ;;
  legacy) suite=bookworm named=${NATS_SERVER_LEGACY_BIN:-} ;;
  *) echo "usage: $0 [modern|legacy]" >&2; exit 2 ;;
esac

if [ -n "$named" ]; then
  [ -x "$named" ] || { echo "$named (named for the $want nats-server) is not an executable" >&2; exit 1; }
  echo "$named"; exit 0
fi

if [ "$want" = modern ] && [ -z "${DAGNATS_FORCE_FETCH:-}" ]; then
  if command -v nats-server >/dev/null 2>&1 && is_modern "$(command -v nats-server)"; then
    command -v nats-server; exit 0
  fi
fi

bin="$tools/nats-server-$want/nats-server"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi

apt_dir="$tools/apt-$suite"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/dl"
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || { echo "no $sources to derive a Debian mirror from" >&2; exit 1; }
# Keep the first (main archive) stanza only, pointed at the wanted suite.
awk -v suite="$suite" '
  /^$/ { if (seen) exit }
  /^Suites:/ { print "Suites: " suite; seen=1; next }
  { print }
' "$sources" > "$apt_dir/debian.sources"

apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/debian.sources" -o Dir::Etc::SourceParts=/dev/null
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update >&2
(cd "$apt_dir/dl" && apt-get "${apt_opts[@]}" -qq download nats-server >&2)
deb=$(ls "$apt_dir"/dl/nats-server_*.deb | head -n1)
rm -rf "$tools/nats-server-$want"; mkdir -p "$tools/nats-server-$want/pkg"
dpkg-deb -x "$deb" "$tools/nats-server-$want/pkg"
# The binary sits in usr/bin or usr/sbin depending on the package revision.
found=$(find "$tools/nats-server-$want/pkg" -type f -name nats-server -perm -u+x | head -n1)
[ -n "$found" ] || { echo "the nats-server package held no nats-server binary" >&2; exit 1; }
ln -s "$found" "$bin"
if [ "$want" = modern ] && ! is_modern "$bin"; then
  echo "the $suite nats-server is $(version_of "$bin"), older than 2.11" >&2; exit 1
fi
echo "$bin"
