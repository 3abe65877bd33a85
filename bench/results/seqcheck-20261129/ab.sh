#!/usr/bin/env bash
# usage: ab.sh RUN... (seventeenth session): did the sixteenth session's commits make a sequential PUT dearer? The
# side-by-side run of 20:50Z had our CPU per sequential 256 KiB PUT at 11.7 ms against 10.1 at 15:55Z. The PUT flow of
# ../put-20261128/flow.sh with the comparison's warm-up (WARMUP=750 of each size), JDK 17, no AOT cache, on the built
# worktrees /tmp/ab-A (10047c6, the sixteenth session's start) and /tmp/ab-B (0c9898b, its end), each run after
# ready_page_cache (flow-lib.sh's ab_worktrees).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
WARMUP=750 ab_worktrees "$root/bench/results/put-20261128/flow.sh" "$@"
