# Sourced by the A/B flows under bench/results/ (getpath-20261127/flow.sh, put-20261128/flow.sh): a fresh dev
# cluster of $root on $work, and `phase LABEL N COMMAND...`, which runs a bench command and prints, per request, the
# CPU of the four JVMs, of the coordinator, of the pod process and of the two stash servers (/proc/PID/stat) and of
# the whole machine (/proc/stat: the bench client and the kernel included), with the coordinator's stripe-read
# decodes, hedges and shards written missing. Needs root, name, work and bucket set; flow_start first, flow_stop
# last. For the A/B scripts: ab_worktrees and ab_options (below); fill_page_cache and top_up_page_cache come from
# systems-lib.sh.
# wait_for_quiet: waits (up to 5 min) for the 1-minute load average to fall below 1, as after a fill or a run before.
wait_for_quiet() { local _; for _ in $(seq 1 60); do awk '{exit !($1 < 1.0)}' /proc/loadavg && return; sleep 5; done; }
# ready_page_cache FILE: the page cache filled (fill_page_cache), then the wait for a load below 1 (wait_for_quiet),
# then the fill topped up (top_up_page_cache): what every measured run starts from.
ready_page_cache() { fill_page_cache "$1"; wait_for_quiet; top_up_page_cache "$1"; }
# ab_worktrees FLOW NAME...: runs FLOW (a flow script taking ROOT and a run name) once per run name, on the built
# checkout /tmp/ab-X for a name Xn, each after ready_page_cache, with a line naming the run, its commit, its
# uncommitted change, the load average and the free memory before it.
ab_worktrees() { ab_each "$1" ab_worktree_run "${@:2}"; }
ab_worktree_run() {
  local tree=/tmp/ab-${2:0:1}
  echo "$2 $(date -u +%H:%M:%SZ) $(git -C "$tree" log -1 --format=%h) $(git -C "$tree" diff --shortstat), $(ab_conditions)"
  ROOT=$tree "$1" "$2"
}
# ab_options FLOW NAME...: an A/B of JVM options on this checkout ($root): FLOW once per run name, each after
# ready_page_cache, with SHARDVAULT_JVM_OPTS (which bin/shardvault puts last) set to AB_OPTS_X for a name Xn; empty
# runs as shipped. The run's line names its options and, with JAVA_HOME set, that JDK.
ab_options() { ab_each "$1" ab_options_run "${@:2}"; }
ab_options_run() {
  local var="AB_OPTS_${2:0:1}"
  if [ -z "${!var+set}" ]; then echo "ab_options: no $var for the run $2" >&2; exit 2; fi
  echo "$2 $(date -u +%H:%M:%SZ) opts='${!var}'${JAVA_HOME:+ $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 1p)}, $(ab_conditions)"
  SHARDVAULT_JVM_OPTS="${!var}" ROOT=$root "$1" "$2"
}
# ab_each FLOW RUNNER NAME...: for each run name, ready_page_cache, then RUNNER FLOW NAME; the fill file goes at the
# end, or at exit when a flow fails.
ab_each() {
  local flow=$1 runner=$2 name; shift 2
  # Global, so that the exit trap still names it when a flow fails and set -e ends the script.
  ab_fill=$(mktemp -u /tmp/ab-fill.XXXXXX)
  trap 'rm -f "$ab_fill"' EXIT
  for name in "$@"; do
    ready_page_cache "$ab_fill"
    "$runner" "$flow" "$name"
  done
  rm -f "$ab_fill"
}
ab_conditions() { echo "load $(cut -d' ' -f1 /proc/loadavg), free $(memfree)"; }
source "$(dirname "${BASH_SOURCE[0]}")/systems-lib.sh"
# A flow's data directory is deleted when the flow stops, before the next run's ready_page_cache (its sync and cache
# drop), never right before a start: on this VM's ext4, which has no journal, a new inode is never one freed in the
# last 60 s (360 s while its inode table block is dirty), and the allocator reads each such inode to skip it. A
# cluster started right after deleting the last one's 100,000 files paid that in its pods' file creations: 3-5 ms
# more pod CPU per PUT in the load where new shard directories begin (docs/PERFORMANCE.md, "Files deleted just
# before a run"). The cache drop forgets the deleted inodes' table blocks, and with them the check.
# flow_start: the dev cluster of $root on $work/data, with DEV_OPTS (e.g. "--simulated-hdd --no-stash") if set.
flow_start() {
  if ss -ltn | grep -q ':9000 \|:7400 '; then echo "$name: a cluster still listens; not measuring"; exit 1; fi
  if [ -e "$work/data" ]; then
    echo "$name: $work/data was left by a flow that did not stop; deleted now, so this run's file creations may pay" \
      "for it (flow_start in bench/flow-lib.sh)"
    rm -rf "$work/data"
  fi
  mkdir -p "$work/data"
  start_system shardvault "$work/data" "$work/cluster-$name.log" ${DEV_OPTS:-}
  cpid=$sys_pid
  start=$(date +%s.%N)
}
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" 2>/dev/null --endpoint http://127.0.0.1:9000 --access-key shardvault-dev --bucket "$bucket" --no-progress; }
# phase LABEL N COMMAND...: runs COMMAND and prints its CPU per request (N requests); its variables are local, so a
# flow's own (a flow once lost its counts to phase's s0) survive it.
# ticks: CPU ticks of the four JVMs, the machine, the coordinator, the pod process, the stash servers, and of the
# JVMs' GC threads (G1's workers, markers, refiners) and JIT compiler threads.
ticks() { local a=0 c=0 p=0 s=0 g=0 j=0 t k; for k in $(pgrep -P $cpid); do [ "$(cat /proc/$k/comm)" = java ] || continue; t=$(sed 's/^.*) //' /proc/$k/stat | awk '{print $12+$13}'); a=$((a+t)); case "$(tr '\0' ' ' < /proc/$k/cmdline)" in *shardvault-coordinator*) c=$((c+t)) ;; *shardvault-pod*) p=$((p+t)) ;; *shardvault-stash*) s=$((s+t)) ;; esac; read -r t u < <(thread_ticks $k); g=$((g+t)); j=$((j+u)); done; m=$(awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat); echo "$a $m $c $p $s $g $j"; }
# thread_ticks PID: CPU ticks of its GC threads and of its JIT compiler threads.
thread_ticks() { local f; for f in /proc/$1/task/*/stat; do cat "$f" 2>/dev/null; echo; done | awk '
  { name = $0; sub(/^[0-9]+ \(/, "", name); sub(/\) .*$/, "", name); rest = $0; sub(/^.*\) /, "", rest); split(rest, v, " ") }
  name ~ /^(GC Thread|G1 )/ { g += v[12] + v[13] } name ~ /CompilerThre/ { j += v[12] + v[13] } END { print g + 0, j + 0 }'; }
counter() { curl -s http://127.0.0.1:9490/metrics | awk -v n="shardvault_data_$1_total" '$1 ~ "^"n"[{]" {s += $2} END {printf "%d", s}'; }
# run_summary: the size, p50 and objects per second of each run line of a bench command's output (stdin), on one line.
run_summary() { awk '$1=="run" && $4 ~ /KiB|MiB/ {print $3 " p50=" $8 " obj/s=" $12}' | tr '\n' ' '; }
phase() { local label=$1 n=$2 a0 m0 c0 p0 s0 g0 j0 f0 d0 h0 w0 a1 m1 c1 p1 s1 g1 j1 d1 h1 w1 out p50; shift 2; read a0 m0 c0 p0 s0 g0 j0 < <(ticks); f0=$(memfree); d0=$(counter read_decodes); h0=$(counter read_hedges); w0=$(counter write_missing_shards); out=$("$@"); read a1 m1 c1 p1 s1 g1 j1 < <(ticks); d1=$(counter read_decodes); h1=$(counter read_hedges); w1=$(counter write_missing_shards); p50=$(run_summary <<< "$out"); echo "$name $label jvms=$(( (a1-a0)*10000/n ))us coordinator=$(( (c1-c0)*10000/n ))us pod=$(( (p1-p0)*10000/n ))us stash=$(( (s1-s0)*10000/n ))us machine=$(( (m1-m0)*10000/n ))us gc=$(( (g1-g0)*10000/n ))us jit=$(( (j1-j0)*10000/n ))us decodes=$((d1-d0)) hedges=$((h1-h0)) missing=$((w1-w0)) free-at-start=${f0// /} [$p50]"; }
java_alive() { [ "$(cat /proc/$1/comm 2>/dev/null)" = java ]; }
flow_stop() {
  echo "$name flow took $(awk -v s=$start -v e=$(date +%s.%N) 'BEGIN{printf "%.0f", e-s}') s"
  local kids k alive
  kids=$(pgrep -P $cpid | tr '\n' ' ')
  echo "$name free memory at the end: $(memfree); resident memory of the JVMs at the end: $(for k in $kids; do awk '/^VmRSS:/ {print $2}' /proc/$k/status 2>/dev/null; done | awk '{s += $1} END {printf "%.0f", s / 1024}') MB"
  kill -TERM $cpid; wait $cpid || true
  # A service is alive while its pid is still a java process: after it exits, the pid may go to anything else.
  for _ in $(seq 1 240); do alive=0; for k in $kids; do java_alive $k && alive=1; done; [ $alive = 0 ] && break; sleep 0.5; done
  for k in $kids; do java_alive $k && { echo "$name: service $k still alive after stop, killed"; kill -KILL $k; }; done
  rm -rf "$work/data"; true
}
