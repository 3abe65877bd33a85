#!/usr/bin/env bash
# Builds the JNI shims into $1/native/<os>-<arch>/ ($1 = the module's target/classes), so that they
# are packaged in the jar and extracted at run time by NativeLibraries:
#   libshardvaultfs.so  syncfs(2) for the pods' flusher (needs gcc and jni.h only)
#   libjerasure4j.so    the shim over Jerasure 2 + gf-complete (needs their headers too)
#
# Without what a library needs it prints why and exits 0: the build then succeeds without it (the
# pods sync file by file, the pure-Java codec codes), and its tests skip unless
# SHARDVAULT_REQUIRE_NATIVE=true, in which case this script fails the build instead.
set -euo pipefail

out_root=${1:?usage: build.sh <classes-dir> [java-home]}
java_home=${2:-${JAVA_HOME:-}}
here=$(cd "$(dirname "$0")" && pwd)

require=false
case "${SHARDVAULT_REQUIRE_NATIVE:-}" in true|TRUE|1|yes) require=true ;; esac

skip() {
  if $require; then
    echo "native: ERROR: cannot build a native library: $1 (SHARDVAULT_REQUIRE_NATIVE=true)" >&2
    exit 1
  fi
  echo "native: not built: $1"
  exit 0
}

case "$(uname -s)" in
  Linux) os=linux ;;
  *) skip "unsupported OS $(uname -s)" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch_64 ;;
  *) skip "unsupported architecture $(uname -m)" ;;
esac

# java.home of a JDK 9+ is the JDK itself; jni.h sits in its include/.
command -v gcc >/dev/null 2>&1 || skip "gcc not found"
jni_dir=""
for candidate in "$java_home" "$java_home/.."; do
  if [ -n "$candidate" ] && [ -f "$candidate/include/jni.h" ]; then jni_dir="$candidate/include"; break; fi
done
[ -n "$jni_dir" ] || skip "jni.h not found under java home '$java_home'"
dest_dir="$out_root/native/$os-$arch"
mkdir -p "$dest_dir"

# build NAME SOURCE [gcc arguments after the source]: skipped when the library is newer than its
# source and this script.
build() {
  local dest="$dest_dir/$1" src="$here/$2"
  shift 2
  if [ -f "$dest" ] && [ "$dest" -nt "$src" ] && [ "$dest" -nt "$0" ]; then
    return
  fi
  gcc -std=gnu11 -O2 -g -fPIC -shared -Wall -Wextra -Werror \
      -fvisibility=hidden -Wl,-z,defs -Wl,--as-needed \
      -I"$jni_dir" -I"$jni_dir/linux" -o "$dest.tmp" "$src" "$@"
  mv "$dest.tmp" "$dest"
  echo "native: built $dest"
}

build libshardvaultfs.so shardvaultfs.c

# JERASURE_INCLUDE_DIR: where jerasure.h, jerasure/ and gf_complete.h live (Debian: /usr/include).
inc=${JERASURE_INCLUDE_DIR:-/usr/include}
[ -f "$inc/jerasure.h" ] && [ -f "$inc/jerasure/reed_sol.h" ] \
  || skip "Jerasure headers not found in $inc (apt-get install libjerasure-dev libgf-complete-dev)"
[ -f "$inc/gf_complete.h" ] || skip "gf-complete headers not found in $inc (apt-get install libgf-complete-dev)"
build libjerasure4j.so jerasure4j.c -I"$inc" -I"$inc/jerasure" -lJerasure -lgf_complete
