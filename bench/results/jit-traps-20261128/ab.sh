#!/usr/bin/env bash
# usage: ab.sh ORDER...   (e.g. X1 Y1 Y2 X2): the PUT flow (../put-20261128/flow.sh) on ROOT (a built checkout of
# 28d3b03) with the page cache filled first as ../inline-20261128/ab.sh does; runs named Yn pass TRAP_OPTS (default
# -XX:PerMethodTrapLimit=0: C2 then compiles no speculative uncommon traps, so nothing deoptimizes when a
# branch or receiver type it never saw shows up) to every JVM through SHARDVAULT_JVM_OPTS; only the coordinator
# runs C2 (pods and stash servers stop at C1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
fill=/tmp/jit-traps-fill
for name in "$@"; do
  fill_page_cache $fill
  opts=""; [ "${name:0:1}" = Y ] && opts="${TRAP_OPTS:--XX:PerMethodTrapLimit=0}"
  echo "$name $(date -u +%H:%M:%SZ) $(git -C "$ROOT" log -1 --format=%h) opts='$opts', load $(cut -d' ' -f1 /proc/loadavg)"
  SHARDVAULT_JVM_OPTS="$opts" "$here/../put-20261128/flow.sh" "$name"
done
rm -f $fill
