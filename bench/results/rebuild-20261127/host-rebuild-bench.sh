#!/usr/bin/env bash
# usage: host-rebuild-bench.sh NAME "PODS" OBJECTS   (ROOT: checkout; objects of 4 MiB; PODS e.g. "7" or "4 5 6 7")
# A fresh dev cluster (unthrottled rebuild, jobs looked for every 200 ms, a 3 s gather delay), OBJECTS
# objects of 4 MiB from 8 clients, the flush, then every shard file of PODS deleted and one
# `admin pod rebuild` per pod started one after the other: they run in one walk. Reports the walk's own
# time (the coordinator log's first "runs from file" to its last "done:"), the shard bytes rebuilt, and
# the server processes' CPU from /proc over the rebuild (from the first start to the last DONE).
# The measurement is ../rebuild-20261127b/rebuild-bench.sh without its warm-up rebuild.
set -euo pipefail
WARM= GATHER=3s exec "$(dirname "$0")/../rebuild-20261127b/rebuild-bench.sh" "$@"
