#!/usr/bin/env bash
# Makes sure a JDK 17+ and Maven are on PATH, installing Debian's packages
# when they are missing and we may (root with apt-get).
set -euo pipefail

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null 2>&1 || missing+=(maven)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "dagnats needs ${missing[*]}: install them and run this again" >&2
    exit 1
  fi
fi
