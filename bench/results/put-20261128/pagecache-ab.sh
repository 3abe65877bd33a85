#!/usr/bin/env bash
# usage: ROOT=checkout pagecache-ab.sh ORDER...   (e.g. F1 C1 F2 C2)
# The PUT flow (flow.sh) on a machine whose free memory is cold (C: caches dropped, then 30 s for the
# hypervisor to take the freed pages back, as this VM's free page reporting does) or filled (F: a sparse
# file as large as the free memory read into the page cache first, so that new page-cache pages come from
# reclaim, as on any server that has run for a day). Also times dd writing 2 GiB of page cache in each state.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fill=/tmp/pagecache-fill
for name in "$@"; do
  rm -f $fill; sync; echo 3 > /proc/sys/vm/drop_caches; sleep 30
  if [ "${name:0:1}" = F ]; then
    free_kb=$(awk '/^MemFree:/ {print $2}' /proc/meminfo)
    truncate -s $((free_kb * 1024)) $fill; cat $fill > /dev/null
  fi
  echo "$name $(date -u +%H:%M:%SZ) free $(awk '/^MemFree:/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo), load $(cut -d' ' -f1 /proc/loadavg)"
  /usr/bin/time -f "$name dd of 2 GiB into the page cache: %S s of system CPU" dd if=/dev/zero of=/tmp/pagecache-dd bs=1M count=2048 status=none
  rm -f /tmp/pagecache-dd
  "$here/flow.sh" "$name"
done
rm -f $fill
