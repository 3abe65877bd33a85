#!/usr/bin/env bash
# usage: ROOT=checkout pairs.sh ORDER...  (e.g. off1 on1 on2 off2 off3 on3; on-nice0N for scrubbing at the
# process's priority): ../scrub-20261126/scrub-cost.sh per name, its mode from the name, each on a page cache filled first (a sparse file as large as the free memory, read
# in), as on a server that has run for a day: this VM gives freed memory back to its host and takes seconds of
# system CPU per GiB to fault it in again, which would load whichever run came first after a cluster's data was
# deleted (the drift of the 2026-11-26 runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fill=/tmp/pagecache-fill
for name in "$@"; do
  mode=${name%[0-9]}
  rm -f $fill; sync; echo 3 > /proc/sys/vm/drop_caches
  free_kb=$(awk '/^MemFree:/ {print $2}' /proc/meminfo)
  truncate -s $(((free_kb - 2097152) * 1024)) $fill; cat $fill > /dev/null
  echo "# $name $(date -u +%H:%M:%SZ) free $(awk '/^MemFree:/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1 /proc/loadavg)"
  "$here/../scrub-20261126/scrub-cost.sh" "$name" "$mode"
done
rm -f $fill
