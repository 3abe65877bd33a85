#!/usr/bin/env bash
# usage: put-ab.sh ORDER... (e.g. A1 H1 H2 A2): the PUT flow (../put-20261128/flow.sh) on the built checkouts
# /tmp/ab-A (a06a289, before the pod's page-cache reads) and /tmp/ab-H (8bfccb3, after), each on a page cache filled
# first: does the dispatcher's extra call per request (a WRITE is answered null at once) show in a PUT? Built with
#   git worktree add --detach /tmp/ab-X COMMIT && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/../put-20261128/flow.sh" "$@"
