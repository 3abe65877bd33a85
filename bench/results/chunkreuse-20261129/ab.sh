#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): the GET flow of ../getinline-20261128/flow.sh with THEN_PUTS=1 (two
# 16-client PUT loads after the GETs, each JVM's direct memory at the end) on the built checkouts /tmp/ab-A (main)
# and /tmp/ab-B (the same with B-chunk-reuse-queue-16.patch: -Dio.netty.allocator.chunkReuseQueueCapacity=16 in
# bin/shardvault; measured, not adopted, docs/PERFORMANCE.md), each on a page cache filled first, once the load is
# below 1, and topped up after that wait (flow-lib.sh's ab_worktrees; the first set, A1-B3, ran before the top-up).
# Table: bench/ab-summary.py jvms,coordinator,pod,stash,jit,ttfb-p50,put-p50,obj/s FILE... Nothing else may run beside it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
THEN_PUTS=1 ab_worktrees "$here/../getinline-20261128/flow.sh" "$@"
