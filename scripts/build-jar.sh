#!/usr/bin/env bash
# Builds the fat JAR bootstrap/target/dagnats.jar when it is missing or older
# than a source or pom of a module it holds, or names another commit than the
# checkout's in its version line. Talks on stderr only, so a caller's
# stdout stays its own (scripts/dagnats ... -o json).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/require-toolchain.sh >&2

jar=bootstrap/target/dagnats.jar
stale=""
if [ -f "$jar" ]; then
  stale=$(find domain protocol application adapters-nats adapters-otel adapters-http cli bootstrap pom.xml \
    \( -name '*.java' -o -name pom.xml -o -name '*.properties' \) -newer "$jar" -print -quit)
  head=$(git rev-parse --short=7 HEAD 2>/dev/null || true)
  if [ -n "$head" ] && command -v unzip >/dev/null 2>&1; then
    built=$(unzip -p "$jar" io/dagnats/leases/bootstrap/version.properties 2>/dev/null | sed -n 's/^commit=//p')
    [ "$head" = "$built" ] || stale="commit $head"
  fi
fi
if [ ! -f "$jar" ] || [ -n "$stale" ]; then
  echo "building $jar" >&2
  mvn -B -q -ntp -Dmaven.test.skip=true package -pl bootstrap -am >&2
fi
