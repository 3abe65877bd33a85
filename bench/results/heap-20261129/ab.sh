#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): the PUT flow (../put-20261128/flow.sh) on the built checkouts /tmp/ab-A
# (main) and /tmp/ab-B (main with the pod process and the coordinator started at -Xms128m instead of -Xms32m), each
# on a page cache filled first: what a young generation that is not starved costs and saves (GC threads' CPU per
# PUT, the JVMs' CPU, resident memory). Built with
#   git worktree add --detach /tmp/ab-X COMMIT && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/../put-20261128/flow.sh" "$@"
