#!/usr/bin/env bash
# usage: ab.sh RUN... (sixteenth session): A/B of CompileThresholdScaling over steady-20261129/flow.sh with 16 rounds,
# each run after ready_page_cache (flow-lib.sh's ab_options). A run named B* is bin/shardvault's 0.5, Q* 0.25.
# Summaries: ../jit-steady-20261129/summarize.py FILE FIRST LAST.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); root=$(cd "$here/../../.." && pwd)
source "$root/bench/flow-lib.sh"
AB_OPTS_B="-XX:CompileThresholdScaling=0.5" AB_OPTS_Q="-XX:CompileThresholdScaling=0.25" ROUNDS=16 \
  ab_options "$root/bench/results/steady-20261129/flow.sh" "$@"
