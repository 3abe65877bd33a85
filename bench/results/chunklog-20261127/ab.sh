#!/usr/bin/env bash
# The stash's chunk log against the RocksDB-only stash, two builds, one after the other, nothing else running:
#   A = BEFORE (a built checkout of the tree before the chunk log merge), B = AFTER (this tree, built)
# in the order A1 B1 B2 A2 (ORDER="..." for others). Each run is ../syncfs-tls-20261126/flow.sh on a fresh
# dev cluster of that build: 1,500 warm-up PUTs, 200 sequential 256 KiB PUTs, three 16-client loads of 400 PUTs
# of 1 MiB; per phase the CPU of the four JVMs (their compiler threads' part), of the whole machine, per PUT;
# and the stash servers' own CPU per PUT (stash=).
#   BEFORE=/work/wt-before AFTER=/work/main bench/results/chunklog-20261127/ab.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
flow=$here/../syncfs-tls-20261126/flow.sh
: "${BEFORE:?a built checkout of the tree before the chunk log}" "${AFTER:=$(cd "$here/../../.." && pwd)}"
for name in ${ORDER:-A1 B1 B2 A2}; do
  case $name in A*) root=$BEFORE ;; B*) root=$AFTER ;; esac
  echo "== $name $(date -u +%H:%M:%SZ) load $(cut -d' ' -f1-3 /proc/loadavg) root $root"
  ROOT=$root "$flow" "$name" || echo "$name: flow.sh exited $?"
done
