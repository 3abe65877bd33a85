#!/usr/bin/env bash
# usage: ab.sh ORDER... (e.g. A1 B1 B2 A2): the PUT flow (../put-20261128/flow.sh) on the built checkouts /tmp/ab-A
# (main: G1, the JVM's default here) and /tmp/ab-B (the same with -XX:+UseParallelGC in every JVM), each on a page
# cache filled first: the collector's barriers and concurrent work against its pauses, per PUT. Built with
#   git worktree add --detach /tmp/ab-X COMMIT && (cd /tmp/ab-X && ./mvnw -q -DskipTests package)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../flow-lib.sh"
ab_worktrees "$here/../put-20261128/flow.sh" "$@"
