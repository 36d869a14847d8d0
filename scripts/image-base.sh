#!/usr/bin/env bash
# Makes what the container image stands on instead of a base image (no
# container registry is reachable here, so none can be pulled):
#
#   OUT/java     a Java runtime that jlink makes from the build's JDK, holding
#                only the modules named (comma-separated)
#   OUT/debian   the C library and every other shared library that runtime
#                loads, from the machine's own Debian packages: the packages
#                that own the libraries the runtime links against on this
#                machine, at the version its apt sources serve now; with each
#                package's copyright file and its control fields under
#                var/lib/dpkg/status.d/ (where image scanners look)
#
#   scripts/image-base.sh OUT MODULES
#
# Run by the image module's build (mvn -Pimage). JAVA_HOME names the JDK
# (the one on PATH when unset). The .deb files are kept in the git-ignored
# .tools/image-debs/ folder, fetched with apt-get through a private package
# list there, as scripts/nats-server.sh does: nothing is installed
# system-wide. Remove that folder to take newer packages (security updates).
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 OUT MODULES" >&2; exit 2; }
out=$1 modules=$2
root=$(cd "$(dirname "$0")/.." && pwd)
debs="$root/.tools/image-debs"
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}

for tool in dpkg dpkg-deb apt-get ldd; do
  command -v "$tool" >/dev/null 2>&1 || { echo "the image is built from Debian's packages: $tool is missing" >&2; exit 1; }
done
[ -x "$java_home/bin/jlink" ] && [ -d "$java_home/jmods" ] \
  || { echo "$java_home has no jlink and jmods: the image's runtime is made from them" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/debian" "$debs"
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --compress=2 --output "$out/java"

# The libraries the runtime's programs and libraries load, as this machine
# resolves them (the ELF interpreter included), outside the runtime itself.
mapfile -t libraries < <(find "$out/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec ldd {} + 2>/dev/null \
  | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && $2 ~ /^\(/ { print $1 }' \
  | grep -v "^$out/" | sort -u)
[ ${#libraries[@]} -gt 0 ] || { echo "ldd found no library the runtime in $out/java loads" >&2; exit 1; }

owner_of() { # the Debian package that installed library $1 (merged /usr or not)
  local path candidate
  for path in "$1" "$(readlink -f "$1")"; do
    for candidate in "$path" "${path#/usr}" "/usr$path"; do
      dpkg -S "$candidate" 2>/dev/null | sed -n 's/^\([^:, ]*\)\(:[a-z0-9]*\)\{0,1\}: .*/\1/p' | head -n1 | grep . && return 0
    done
  done
  echo "no Debian package owns $1, which the runtime loads" >&2
  return 1
}
packages=()
for library in "${libraries[@]}"; do packages+=("$(owner_of "$library")"); done

apt_dir="$debs/apt"
apt_opts=(-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
fetched=""
fetch() { # puts a .deb of each package named into $debs unless one is there
  local missing=() package
  for package in "$@"; do
    compgen -G "$debs/${package}_*.deb" >/dev/null || missing+=("$package")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  if [ -z "$fetched" ]; then
    mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
    apt-get "${apt_opts[@]}" -qq update >&2
    fetched=yes
  fi
  (cd "$debs" && apt-get "${apt_opts[@]}" -qq download "${missing[@]}" >&2)
}

unpacked="$out/unpacked"
unpack() { # extracts each package named into $unpacked
  local package deb
  for package in "$@"; do
    deb=$(ls "$debs/${package}"_*.deb | sort -V | tail -n1)
    dpkg-deb -x "$deb" "$unpacked"
    mkdir -p "$out/debian/var/lib/dpkg/status.d"
    dpkg-deb -f "$deb" > "$out/debian/var/lib/dpkg/status.d/$package"
  done
}

mapfile -t packages < <(printf '%s\n' "${packages[@]}" | sort -u)
fetch "${packages[@]}"
unpack "${packages[@]}"
# A package whose doc folder links to another's (libstdc++6 to gcc-12-base)
# has its copyright there: bring that package too, for its copyright only.
mapfile -t doc_owners < <(find "$unpacked/usr/share/doc" -mindepth 1 -maxdepth 1 -type l -printf '%l\n' \
  | while read -r target; do [ -e "$unpacked/usr/share/doc/$target" ] || echo "$target"; done | sort -u)
if [ ${#doc_owners[@]} -gt 0 ]; then
  fetch "${doc_owners[@]}"
  unpack "${doc_owners[@]}"
fi

# Keep the shared libraries (not gconv's iconv modules, programs or docs) and
# the copyright files.
(cd "$unpacked" && find lib* usr/lib -maxdepth 2 \( -type f -o -type l \) -name '*.so*' -print0 2>/dev/null \
  && find usr/share/doc -mindepth 2 -maxdepth 2 -type f -name copyright -print0) \
  | tar -C "$unpacked" --null -cf - -T - | tar -C "$out/debian" -xf -
# Jib copies what a link points to, and an absolute link would point into the
# build machine, so no link is left: each becomes the file it names (the
# loader asks for libz.so.1, and /lib64/ld-linux-x86-64.so.2 is every
# program's interpreter), and a file that was only a link's target beside it
# (libz.so.1.2.13) goes.
inside() { # the file link $1 names, inside the tree
  local target; target=$(readlink "$1")
  case "$target" in
    /*) echo "$out/debian$target" ;;
    *) echo "$(dirname "$1")/$target" ;;
  esac
}
mapfile -t links < <(find "$out/debian" -type l)
only_targets=()
resolved=()
for link in "${links[@]}"; do
  file=$(inside "$link")
  if [ ! -L "$file" ] && [ "$(dirname "$file")" = "$(dirname "$link")" ]; then only_targets+=("$file"); fi
  while [ -L "$file" ]; do file=$(inside "$file"); done
  [ -f "$file" ] || { echo "$link names $(readlink "$link"), which no package brought" >&2; exit 1; }
  resolved+=("$file")
done
for i in "${!links[@]}"; do cp --remove-destination "${resolved[i]}" "${links[i]}"; done
[ ${#only_targets[@]} -eq 0 ] || rm -f "${only_targets[@]}"
rm -rf "$unpacked"
echo "image base: a Java runtime of $modules, and Debian's ${packages[*]} ${doc_owners[*]}" >&2
