#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: the PUT flow of ../put-20261128/flow.sh (a fresh dev cluster, 1,500 warm-up PUTs,
# sequential 256 KiB and 1 MiB PUTs with 10 ms pauses, two 16-client loads of 1 MiB), and per phase, beside the CPU
# per PUT, what the stash servers did: syncs (group commits) per PUT and the mean time of a PUT_MANY, from their
# meters (shardvault_stash_commit_sync_seconds, shardvault_rpc_server_requests_seconds{op="stash.putMany"}).
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/stashgroup; bucket=stashgroup
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
# stash_meters: syncs and PUT_MANY count and seconds, summed over both stash servers.
stash_meters() {
  for port in 9470 9471; do curl -s "http://127.0.0.1:$port/metrics"; done | awk '
    $1 ~ /^shardvault_stash_commit_sync_seconds_count/ { s += $2 }
    $1 ~ /^shardvault_rpc_server_requests_seconds_count[{].*op="stash.putMany"/ { n += $2 }
    $1 ~ /^shardvault_rpc_server_requests_seconds_sum[{].*op="stash.putMany"/ { t += $2 }
    END { printf "%d %d %.6f\n", s, n, t }'
}
stash_phase() {
  local label=$1 n=$2; shift 2
  read -r y0 n0 t0 < <(stash_meters)
  phase "$label" "$n" "$@"
  read -r y1 n1 t1 < <(stash_meters)
  awk -v name="$name" -v label="$label" -v n="$n" -v s="$((y1 - y0))" -v c="$((n1 - n0))" -v t0="$t0" -v t1="$t1" \
    'BEGIN { printf "%s %s stash: syncs per PUT %.2f, PUT_MANY %d, mean %.2f ms\n", name, label, s / n, c, c ? (t1 - t0) * 1000 / c : 0 }'
}
flow_start
bench latency --count 1500 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
stash_phase seq256K 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
stash_phase seq1M 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 1MiB
stash_phase put16a 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
stash_phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
flow_stop
