#!/usr/bin/env bash
# run.sh NAME...: flow.sh once per name, as shipped, each after ready_page_cache (flow-lib.sh's ab_options).
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
source "$root/bench/flow-lib.sh"
AB_OPTS_S="" ab_options "$(dirname "$0")/flow.sh" "$@"
