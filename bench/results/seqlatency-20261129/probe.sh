#!/usr/bin/env bash
# usage: [DEV_OPTS=...] ROOT=checkout probe.sh NAME: where a sequential PUT's time goes. A fresh dev cluster of ROOT
# (with DEV_OPTS, e.g. --simulated-hdd, --no-stash), the comparison's warm-up (1,500 sequential PUTs, then 400 PUTs of
# 256 KiB at 8 clients as run-stash-comparison.sh does), then 100 sequential PUTs of 256 KiB with 10 ms pauses; the
# mean of every server timer over those PUTs alone (timers.py over two scrapes of the services' metrics), and their
# CPU per PUT (flow-lib.sh's phase).
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/seqlatency; bucket=seqlatency
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
# The services' metrics, each line after its port; a cluster without the stash has no 9470 and 9471.
scrape() { local p; for p in 9490 9480 9470 9471; do { curl -s "http://127.0.0.1:$p/metrics" || true; } | sed "s/^/$p\t/"; done; }
flow_start
bench latency --count 750 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
bench throughput --count 400 --clients 8 --sizes 256KiB > /dev/null
scrape > "$work/before"
phase seq256k 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
scrape > "$work/after"
python3 "$here/timers.py" "$work/before" "$work/after" | grep -v 'op="pod.write"\|pod_flush_latency\|pod_write_latency' \
  | head -40
echo "pod.write RPCs, pods' buffered or durable writes and flushes, means over the pods (min-max):"
python3 "$here/timers.py" "$work/before" "$work/after" | awk '/op="pod.write"|pod_flush_latency|pod_write_latency/ {
  for (i = 1; i <= NF; i++) if ($i ~ /^shardvault_/) k = $i
  if ($0 ~ /op="pod.write"/) k = k " pod.write"; if ($0 ~ /mode="durable"/) k = k " durable"
  if ($0 ~ /mode="buffered"/) k = k " buffered"
  n[k]++; s[k] += $1; if (!(k in lo) || $1 < lo[k]) lo[k] = $1; if ($1 > hi[k]) hi[k] = $1 }
  END { for (k in n) printf "  %-45s %8.3f ms (%.3f-%.3f) over %d\n", k, s[k] / n[k], lo[k], hi[k], n[k] }'
flow_stop
