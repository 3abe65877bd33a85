#!/usr/bin/env bash
# Builds libjerasure4j.so, the JNI shim over Jerasure 2 + gf-complete, into
#   $1/native/<os>-<arch>/libjerasure4j.so   ($1 = the module's target/classes)
# so that it is packaged in the jar and extracted at run time by NativeLibraryLoader.
#
# Without the Jerasure headers (or gcc, or jni.h) it prints why and exits 0: the build then
# succeeds without the native codec, and its tests skip unless SHARDVAULT_REQUIRE_NATIVE=true,
# in which case this script fails the build instead.
set -euo pipefail

out_root=${1:?usage: build.sh <classes-dir> [java-home]}
java_home=${2:-${JAVA_HOME:-}}
here=$(cd "$(dirname "$0")" && pwd)
src="$here/jerasure4j.c"

require=false
case "${SHARDVAULT_REQUIRE_NATIVE:-}" in true|TRUE|1|yes) require=true ;; esac

skip() {
  if $require; then
    echo "jerasure4j: ERROR: cannot build the native codec: $1 (SHARDVAULT_REQUIRE_NATIVE=true)" >&2
    exit 1
  fi
  echo "jerasure4j: native codec not built: $1; the pure-Java codec will be used"
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

# JERASURE_INCLUDE_DIR: where jerasure.h, jerasure/ and gf_complete.h live (Debian: /usr/include).
inc=${JERASURE_INCLUDE_DIR:-/usr/include}
command -v gcc >/dev/null 2>&1 || skip "gcc not found"
[ -f "$inc/jerasure.h" ] && [ -f "$inc/jerasure/reed_sol.h" ] \
  || skip "Jerasure headers not found in $inc (apt-get install libjerasure-dev libgf-complete-dev)"
[ -f "$inc/gf_complete.h" ] || skip "gf-complete headers not found in $inc (apt-get install libgf-complete-dev)"

# java.home of a JDK 9+ is the JDK itself; jni.h sits in its include/.
jni_dir=""
for candidate in "$java_home" "$java_home/.."; do
  if [ -n "$candidate" ] && [ -f "$candidate/include/jni.h" ]; then jni_dir="$candidate/include"; break; fi
done
[ -n "$jni_dir" ] || skip "jni.h not found under java home '$java_home'"

dest_dir="$out_root/native/$os-$arch"
dest="$dest_dir/libjerasure4j.so"
mkdir -p "$dest_dir"
if [ -f "$dest" ] && [ "$dest" -nt "$src" ] && [ "$dest" -nt "$0" ]; then
  exit 0
fi
gcc -std=gnu11 -O2 -g -fPIC -shared -Wall -Wextra -Werror \
    -fvisibility=hidden -Wl,-z,defs -Wl,--as-needed \
    -I"$jni_dir" -I"$jni_dir/linux" -I"$inc" -I"$inc/jerasure" \
    -o "$dest.tmp" "$src" -lJerasure -lgf_complete
mv "$dest.tmp" "$dest"
echo "jerasure4j: built $dest"
