#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: the PUT flow of ../put-20261128/flow.sh (a fresh dev cluster, 1,500 warm-up PUTs,
# sequential 256 KiB and 1 MiB PUTs with 10 ms pauses, two 16-client loads of 1 MiB), and per phase, beside the CPU
# per PUT, what the stash servers did (stash-meters.sh: syncs per PUT, the mean time of a PUT_MANY).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
FLOW_HOOKS="$here/stash-meters.sh" exec "$here/../put-20261128/flow.sh" "$@"
