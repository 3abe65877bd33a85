#!/usr/bin/env bash
# Thirteenth session, 10:46-10:55Z: steady-20261129/flow.sh (16 rounds, bin/shardvault at CompileThresholdScaling 0.5)
# and minio-flow.sh (16 rounds) one after the other, each on a page cache filled first, load < 1 at each start.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd); cd "$root"; source bench/flow-lib.sh
for sys in shardvault minio; do
  fill_page_cache /tmp/fill.sparse
  wait_for_quiet
  echo "$sys $(date -u +%H:%M:%SZ) $(git log -1 --format=%h) load $(cut -d' ' -f1 /proc/loadavg), free $(memfree)"
  if [ $sys = shardvault ]; then ROUNDS=16 ROOT=$root bench/results/steady-20261129/flow.sh steady16; else ROUNDS=16 ROOT=$root bench/results/steady-20261129/minio-flow.sh; fi
done
rm -f /tmp/fill.sparse
