#!/usr/bin/env bash
# Side by side with MinIO (issue #18): starts MinIO (../shared/peers/minio.sh: 8 drive directories, EC 4+4)
# and `bin/shardvault dev` (pods on the real disk, with the stash) ONE AFTER THE OTHER on this machine, each
# on a fresh data directory on the same disk, runs the same `shardvault bench` scenarios against both, and
# writes a table (MinIO, shardvault, ratio shardvault/MinIO) into bench/results/peer-<UTC time>/table.md and
# into docs/PERFORMANCE.md under "## Side by side with MinIO (issue #18)", replacing that section.
#
# Per system, in this order:
#   warm-up     WARMUP uncounted sequential PUTs (half of them per SEQ_SIZES size), no pause
#   sequential  SEQ_COUNT PUTs per SEQ_SIZES size on one connection, PAUSE_MS between them (`bench latency`)
#   PUT load    TP_CLIENTS clients x TP_COUNT PUTs of TP_SIZE (`bench throughput --ops PUT`)
#   GET load    GET_OBJECTS objects of GET_SIZE uploaded (uncounted), GET_WARMUP uncounted GETs, then each
#               object read GET_READS times by GET_CLIENTS threads (`bench ttfb --clients`): objects/s and the
#               time to first byte p50/p99
#   memory      VmRSS summed over the server processes, read at the end of the GET load
#   aws s3 cp   (CP=1) a CP_MB MB file up and down with the AWS CLI, default 8 MiB parts, CP_COUNT times
#               each, alternating up and down: MB/s, the median of the CP_COUNT, and the CLI's own CPU per MB
# Server CPU of each phase (sequential per size, PUT load, GET load, cp up, cp down) = utime + stime from
# /proc/PID/stat, summed over every server process (MinIO: its process; shardvault: the four JVMs of the dev
# cluster: coordinator, pod process, two stash servers), read before and after the phase, divided by the
# phase's requests (per MB for aws s3 cp, whose requests are the CLI's parts). A phase's requests include
# the bench client's one HeadBucket; idle timers during the pauses count, as they cost the server. The same
# CPU without the JVMs' JIT compiler threads (/proc/PID/task/TID/stat of the threads named "C1/C2
# CompilerThre") is a second figure: the JIT is a one-off per process start that a benchmark of a few
# thousand requests after a restart still pays, a server running for weeks does not; MinIO has none.
# RUNS=3 repeats the pair in alternating order (MinIO first, then shardvault first, ...) and reports the
# median of each figure; every run's figures stay in figures.tsv.
#
#   WARMUP (1500)  SEQ_COUNT (100)  SEQ_SIZES (256KiB,1MiB)  PAUSE_MS (10)  TP_CLIENTS (16)  TP_COUNT (400)
#   TP_SIZE (1MiB)  GET_OBJECTS (200)  GET_READS (2)  GET_CLIENTS (16)  GET_SIZE (1MiB)  GET_WARMUP (400)
#   CP (1)  CP_MB (400)  CP_COUNT (3)  RUNS (1)  MINIO_PORT (9100)  WRITE_DOC (1; 0 leaves the docs alone)
#   OUT_DIR (bench/results/peer-<UTC time>)  SETTLE_LOAD (1.5)  SETTLE_SECONDS (240): wait before each system
#   PAGE_CACHE (as-is; "filled": before each system, caches dropped and a sparse file as large as the available memory
#     less 3 GiB read into the page cache, and read again once the load has settled, so that new page-cache pages
#     come from reclaim, as on a server that has run for a day; on a VM that hands freed memory back to its host, a
#     fresh page costs several times more system CPU to fill: docs/PERFORMANCE.md "Page cache on this VM". Its
#     table goes under a heading of its own.)
# A test of the script itself, in a few minutes (its figures mean nothing; keep them out of the docs):
#   WARMUP=20 SEQ_COUNT=10 TP_CLIENTS=2 TP_COUNT=10 GET_OBJECTS=5 GET_READS=2 GET_CLIENTS=2 GET_WARMUP=4 \
#     CP_MB=20 CP_COUNT=1 WRITE_DOC=0 bench/run-peer-comparison.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bench/systems-lib.sh"
warmup="${WARMUP:-1500}"
seq_count="${SEQ_COUNT:-100}"
seq_sizes="${SEQ_SIZES:-256KiB,1MiB}"
pause_ms="${PAUSE_MS:-10}"
tp_clients="${TP_CLIENTS:-16}"
tp_count="${TP_COUNT:-400}"
tp_size="${TP_SIZE:-1MiB}"
get_objects="${GET_OBJECTS:-200}"
get_reads="${GET_READS:-2}"
get_clients="${GET_CLIENTS:-16}"
get_size="${GET_SIZE:-1MiB}"
get_warmup="${GET_WARMUP:-400}"
cp_on="${CP:-1}"
cp_mb="${CP_MB:-400}"
cp_count="${CP_COUNT:-3}"
runs="${RUNS:-1}"
minio_port="${MINIO_PORT:-9100}"
write_doc="${WRITE_DOC:-1}"
page_cache="${PAGE_CACHE:-as-is}"
case "$page_cache" in as-is | filled) ;; *) echo "PAGE_CACHE is as-is or filled, not $page_cache" >&2; exit 2 ;; esac
minio_sh="${MINIO_SH:-$root/../shared/peers/minio.sh}"
aws="${AWS_CLI:-$HOME/.cache/shardvault/interop/awscli/bin/aws}"
started="$(date -u +%Y%m%dT%H%M%SZ)"
out="${OUT_DIR:-$root/bench/results/peer-$started}"
bucket="peer-bench"
clk_tck="$(getconf CLK_TCK)"
work="$(mktemp -d)"
mkdir -p "$out"

die() {
  echo "run-peer-comparison: $*" >&2
  exit 2
}

[ -x "$minio_sh" ] || die "no MinIO launcher at $minio_sh (set MINIO_SH)"
if [ "$cp_on" = 1 ] && [ ! -x "$aws" ]; then
  die "no AWS CLI at $aws (set AWS_CLI, or CP=0 to skip aws s3 cp)"
fi
if pgrep -f 'bin/shardvault dev' >/dev/null; then
  die "another 'bin/shardvault dev' is running; stop it first"
fi
for port in 9000 "$minio_port"; do
  if curl -s -o /dev/null "http://127.0.0.1:$port/"; then
    die "something already answers on 127.0.0.1:$port; stop it first"
  fi
done

# The system under test: its name, the pid of what was started (minio.sh, which execs MinIO, or
# bin/shardvault dev, whose children are the JVMs), its endpoint and credentials.
sys="" sys_pid="" endpoint="" access="" secret=""

stop_system() {
  if [ -n "$sys_pid" ] && kill -0 "$sys_pid" 2>/dev/null; then
    kill -TERM "$sys_pid"
    wait "$sys_pid" || true
  fi
  sys_pid=""
}
trap 'stop_system; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Every process in the tree under $1 (itself included) that is a server: a JVM or MinIO.
server_pids() {
  local child
  case "$(cat "/proc/$1/comm" 2>/dev/null)" in
    java | minio) echo "$1" ;;
  esac
  for child in $(pgrep -P "$1" || true); do
    server_pids "$child"
  done
}

# utime + stime, in clock ticks, summed over the processes named in $pids.
cpu_ticks() {
  local p total=0
  for p in $pids; do
    # Fields after "pid (comm) ": state is $1, so utime (field 14) is $12 and stime (15) is $13.
    total=$((total + $(sed 's/^.*) //' "/proc/$p/stat" | awk '{print $12 + $13}')))
  done
  echo "$total"
}

# utime + stime, in clock ticks, of the JIT compiler threads of the processes named in $pids.
jit_ticks() {
  local p t total=0
  for p in $pids; do
    for t in /proc/"$p"/task/*; do
      case "$(cat "$t/comm" 2>/dev/null)" in
        "C1 CompilerThre"* | "C2 CompilerThre"*)
          total=$((total + $(sed 's/^.*) //' "$t/stat" 2>/dev/null | awk '{print $12 + $13}'))) ;;
      esac
    done
  done
  echo "$total"
}

# VmRSS in MB (10^6 bytes), summed over the processes named in $pids.
rss_mb() {
  local p total=0
  for p in $pids; do
    total=$((total + $(awk '/^VmRSS:/ {print $2}' "/proc/$p/status")))
  done
  echo $((total * 1024 / 1000000))
}

# figure METRIC VALUE: one figure of this system in this run.
figure() {
  printf '%s\t%s\t%s\t%s\n' "$sys" "$run" "$1" "$2" >>"$out/figures.tsv"
}

# phase NAME UNITS COMMAND...: runs the command and records the servers' CPU over it per unit (request or
# MB) as the figure cpu-NAME, in ms, the same without the JIT compiler threads as cpunojit-NAME, plus its
# wall time in seconds as wall-NAME.
phase() {
  local name="$1" units="$2" t0 t1 j0 j1 w0 w1
  shift 2
  t0="$(cpu_ticks)"
  j0="$(jit_ticks)"
  w0="$(date +%s.%N)"
  "$@"
  w1="$(date +%s.%N)"
  # The compiler threads are read inside the process's window (after it at the start, before it at the
  # end), so JIT time between the two reads counts as the server's, never the other way round.
  j1="$(jit_ticks)"
  t1="$(cpu_ticks)"
  figure "cpu-$name" "$(awk -v t="$((t1 - t0))" -v hz="$clk_tck" -v n="$units" 'BEGIN {printf "%.3f", t * 1000 / hz / n}')"
  figure "cpunojit-$name" "$(awk -v t="$((t1 - t0 - (j1 - j0)))" -v hz="$clk_tck" -v n="$units" \
    'BEGIN {printf "%.3f", t * 1000 / hz / n}')"
  figure "wall-$name" "$(awk -v a="$w0" -v b="$w1" 'BEGIN {printf "%.3f", b - a}')"
}

# The secret reaches the bench tool through its environment, not its command line (ps shows that to all).
bench() {
  SHARDVAULT_SECRET_KEY="$secret" "$root/bin/shardvault" bench "$@" --endpoint "$endpoint" --access-key "$access" \
    --bucket "$bucket" --label "$sys" --no-progress
}

aws_s3() {
  AWS_ACCESS_KEY_ID="$access" AWS_SECRET_ACCESS_KEY="$secret" AWS_DEFAULT_REGION=us-east-1 \
    AWS_CONFIG_FILE="$work/aws-config" AWS_SHARED_CREDENTIALS_FILE="$work/aws-credentials" \
    "$aws" --endpoint-url "$endpoint" s3 "$@" --only-show-errors --no-progress
}

# cp_phase NAME SOURCE DESTINATION: phase NAME over one `aws s3 cp`, per MB, and the AWS CLI's own CPU per MB as
# the figure client-cpu-NAME. The CLI is a Python process on the same two cores: at about one core per 300-400 MB/s
# down, its CPU bounds the MB/s a server can show, and a copy whose CLI spent more (its kernel writing the file)
# is slow whatever the server did (2026-11-29, thirteenth session).
cp_phase() {
  local name="$1"
  shift
  phase "$name" "$cp_mb" aws_cpu cp "$@"
  figure "client-cpu-$name" "$(awk -v mb="$cp_mb" '{printf "%.3f", ($1 + $2) * 1000 / mb}' "$work/cli-cpu")"
}

# aws_cpu ARGS...: aws_s3 ARGS, with the CLI's user and system CPU seconds left in $work/cli-cpu.
aws_cpu() {
  local TIMEFORMAT='%U %S'
  { time aws_s3 "$@" 2>&3; } 3>&2 2>"$work/cli-cpu"
}

# measure SYSTEM: starts it on a fresh data directory, runs every phase, stops it and deletes its data.
# Waits (at most SETTLE_SECONDS, default 240) for the 1-minute load average to fall below SETTLE_LOAD (1.5):
# the previous system's load decays over minutes, and the table shows the load each system started under.
settle() {
  local limit="${SETTLE_SECONDS:-240}" threshold="${SETTLE_LOAD:-1.5}"
  for _ in $(seq 1 "$((limit / 5))"); do
    awk -v t="$threshold" '{ exit !($1 < t) }' /proc/loadavg && return 0
    sleep 5
  done
}

# With PAGE_CACHE=filled: the page cache filled with clean pages (systems-lib.sh's fill_page_cache), so that what a
# system writes into it comes from reclaim rather than from free memory; the fill's own CPU is done before settle
# waits for the load to fall, and the fill is topped up after that wait (top_up_page_cache: this VM pages cold memory
# out while it waits).
fill_if_asked() { [ "$page_cache" != filled ] || "$@" "$work/page-cache-fill"; }

# forget_data DIR: a stopped system's data. With PAGE_CACHE=filled it is deleted now: the next fill's sync and cache
# drop come before the next start. As-is, it stays until the script ends (the exit trap deletes $work): on ext4 without
# a journal (this VM's), a file created within 60-360 s of many deletions reads each freed inode to skip it, and a
# system started right after the last one's files were deleted paid for them (flow_start in bench/flow-lib.sh).
forget_data() { [ "$page_cache" != filled ] || rm -rf "$1"; }

measure() {
  sys="$1"
  local tag="$sys-run$run" data="$work/$1-run$run" size n
  local raw="$out/$tag"
  mkdir -p "$raw"
  fill_if_asked fill_page_cache
  settle
  fill_if_asked top_up_page_cache
  echo "$tag: memory free before the start $(awk '/^MemFree:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)" \
    | tee -a "$out/load.txt"
  echo "$tag: load average before the start $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
  figure load "$(cut -d' ' -f1 /proc/loadavg)"
  MINIO_SH="$minio_sh" MINIO_PORT="$minio_port" start_system "$sys" "$data" "$raw/server.log"
  pids="$(server_pids "$sys_pid" | paste -sd' ')"
  n="$(wc -w <<<"$pids")"
  if { [ "$sys" = minio ] && [ "$n" != 1 ]; } || { [ "$sys" = shardvault ] && [ "$n" != 4 ]; }; then
    die "$tag: expected 1 MinIO process or 4 shardvault JVMs, found $n ($pids)"
  fi
  ps -o pid=,rss=,args= -p "${pids// /,}" | cut -c1-300 >"$raw/processes.txt"
  echo "$tag: ready at $endpoint; $n server processes: $pids"

  local sizes_n
  sizes_n="$(tr ',' '\n' <<<"$seq_sizes" | wc -l)"
  echo "$tag: warm-up, $warmup uncounted PUTs"
  phase warmup "$warmup" bench latency --count "$(((warmup + sizes_n - 1) / sizes_n))" --warmup 0 --pause-ms 0 \
    --sizes "$seq_sizes" >"$raw/warmup.txt"
  echo "$tag: measuring; load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
  for size in ${seq_sizes//,/ }; do
    phase "seq-$size" "$seq_count" bench latency --count "$seq_count" --warmup 0 --pause-ms "$pause_ms" \
      --sizes "$size" --out "$raw/results.tsv" | tee -a "$raw/sequential.txt"
  done
  phase "put-$tp_size-x$tp_clients" "$tp_count" bench throughput --clients "$tp_clients" --sizes "$tp_size" \
    --count "$tp_count" --ops PUT --out "$raw/results.tsv" | tee "$raw/put-load.txt"
  local gets=$((get_objects * get_reads)) ttfb=(ttfb --sizes "$get_size" --objects "$get_objects"
    --clients "$get_clients" --run-id "get-load")
  phase get-upload "$get_objects" bench "${ttfb[@]}" --only upload >"$raw/get-upload.txt"
  if [ "$get_warmup" -gt 0 ]; then
    bench "${ttfb[@]}" --only read --count "$get_warmup" --warmup 0 >"$raw/get-warmup.txt"
  fi
  phase "get-$get_size-x$get_clients" "$gets" bench "${ttfb[@]}" --only read --count "$gets" --warmup 0 \
    --out "$raw/results.tsv" | tee "$raw/get-load.txt"
  figure rss-mb "$(rss_mb)"
  ps -o pid=,rss=,args= -p "${pids// /,}" | cut -c1-300 >"$raw/processes-after-load.txt"

  if [ "$cp_on" = 1 ]; then
    local i
    for i in $(seq 1 "$cp_count"); do
      cp_phase cp-up "$work/cp-file" "s3://$bucket/cp-$i"
      cp_phase cp-down "s3://$bucket/cp-$i" "$work/cp-down"
      cmp -s "$work/cp-file" "$work/cp-down" || die "$tag: aws s3 cp brought back other bytes"
      rm -f "$work/cp-down"
    done
  fi

  # The bench tool's rows: sequential p50 per size, PUT and GET throughput, TTFB p50/p99 (TSV columns:
  # label scenario op size clients count mean p50 p90 p99 max obj/s MB/s total-s).
  awk -F'\t' -v s="$sys" -v r="$run" 'BEGIN {OFS = "\t"}
    $2 == "latency" {print s, r, "seq-p50-" $4, $8}
    $2 == "throughput" {print s, r, "put-objs-" $4 "-x" $5, $12}
    $2 == "ttfb" && $3 == "GET" {print s, r, "get-objs-" $4 "-x" $5, $12}
    $2 == "ttfb" && $3 == "TTFB" {print s, r, "ttfb-p50-" $4 "-x" $5, $8; print s, r, "ttfb-p99-" $4 "-x" $5, $10}' \
    "$raw/results.tsv" >>"$out/figures.tsv"
  echo "$tag: stopping"
  stop_system
  forget_data "$data"
  rm -f "$work/page-cache-fill"
}

# Builds the jars once, before anything is timed.
(cd "$root" && ./mvnw -B -q -DskipTests package -pl jmh -am)
if [ "$cp_on" = 1 ]; then
  head -c "$((cp_mb * 1000000))" /dev/urandom >"$work/cp-file"
  printf '[default]\ns3 =\n    addressing_style = path\n' >"$work/aws-config"
fi
: >"$out/figures.tsv"
{
  echo "started $started; $(nproc) cores, $(awk '/^MemTotal:/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo) memory;" \
    "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
  echo "$("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | head -1)$([ -z "${SHARDVAULT_AOT_DIR:-}" ] \
    || echo " with AOT caches in $SHARDVAULT_AOT_DIR"); MinIO $("$(go env GOPATH)/bin/minio" --version 2>/dev/null | head -1 || echo '(installed at its first start)')"
  echo "WARMUP=$warmup SEQ_COUNT=$seq_count SEQ_SIZES=$seq_sizes PAUSE_MS=$pause_ms TP_CLIENTS=$tp_clients" \
    "TP_COUNT=$tp_count TP_SIZE=$tp_size GET_OBJECTS=$get_objects GET_READS=$get_reads GET_CLIENTS=$get_clients" \
    "GET_SIZE=$get_size GET_WARMUP=$get_warmup CP=$cp_on CP_MB=$cp_mb CP_COUNT=$cp_count RUNS=$runs" \
    "PAGE_CACHE=$page_cache"
} | tee "$out/settings.txt"

# With SHARDVAULT_AOT_DIR set, on JDK 25 and later, bin/shardvault keeps an AOT cache per service
# (docs/PERFORMANCE.md, "An AOT cache on JDK 25"), written when a run of the current JARs stops. One unmeasured
# run of the warm-up and the loads trains it first, so every measured run starts as a restarted service in
# production does: from the cache. The training does what a measured run does, `aws s3 cp` too: a multipart upload's
# code is the CLI's parts' path, which the loads never take, and was compiled from nothing during the measured copies
# (0.8 ms of CPU per MB uploaded in the run of 2026-11-29T15:55Z).
if [ -n "${SHARDVAULT_AOT_DIR:-}" ] \
    && "${JAVA_HOME:+$JAVA_HOME/bin/}java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
  echo "training the dev cluster's AOT caches: one unmeasured run"
  sys=shardvault
  start_system shardvault "$work/aot-training" "$out/aot-training.log"
  bench latency --count "$((warmup / 2))" --warmup 0 --pause-ms 0 --sizes "$seq_sizes" >/dev/null
  bench throughput --clients "$tp_clients" --sizes "$tp_size" --count "$tp_count" --ops PUT >/dev/null
  bench ttfb --sizes "$get_size" --objects "$get_objects" --clients "$get_clients" --run-id aot-training \
    --count "$((get_objects * get_reads))" --warmup 0 >/dev/null
  if [ "$cp_on" = 1 ]; then
    aws_s3 cp "$work/cp-file" "s3://$bucket/aot-training"
    aws_s3 cp "s3://$bucket/aot-training" "$work/cp-down"
    rm -f "$work/cp-down"
  fi
  stop_system
  forget_data "$work/aot-training"
fi

for run in $(seq 1 "$runs"); do
  if [ $((run % 2)) = 1 ]; then order="minio shardvault"; else order="shardvault minio"; fi
  for system in $order; do
    measure "$system"
  done
done
"$(go env GOPATH)/bin/minio" --version 2>/dev/null | head -1 >"$out/minio-version.txt" || true

# The table: one row per figure, the median over the runs for each system, and the ratio.
python3 - "$out" "$started" "$runs" "$seq_sizes" "$tp_size" "$tp_clients" "$get_size" "$get_clients" "$cp_on" \
  "$cp_mb" "$cp_count" "$page_cache" <<'PY' | tee "$out/table.md"
import collections, statistics, sys, subprocess, textwrap
out, started, runs, seq_sizes, tp_size, tp_clients, get_size, get_clients, cp_on, cp_mb, cp_count, page_cache = \
    sys.argv[1:]
size_bytes = lambda s: int(s[:-3]) * {'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30}[s[-3:]]
human = lambda s: s.replace('KiB', ' KiB').replace('MiB', ' MiB').replace('GiB', ' GiB')
values = collections.defaultdict(list)
for line in open(out + '/figures.tsv'):
    system, run, metric, value = line.rstrip('\n').split('\t')
    values[(system, metric)].append(float(value))
tb, gb = size_bytes(tp_size), size_bytes(get_size)
rows = []
for s in seq_sizes.split(','):
    rows.append(('PUT %s p50, sequential (ms)' % human(s), 'seq-p50-%d' % size_bytes(s), 1))
rows.append(('%s x %s PUT throughput (obj/s)' % (tp_clients, human(tp_size)), 'put-objs-%d-x%s' % (tb, tp_clients), 1))
for s in seq_sizes.split(','):
    rows.append(('server CPU per sequential PUT %s (ms)' % human(s), 'cpu-seq-' + s, 1))
rows.append(('server CPU per %s PUT at %s clients (ms)' % (human(tp_size), tp_clients),
             'cpu-put-%s-x%s' % (tp_size, tp_clients), 1))
rows.append(('%s x %s GET throughput (obj/s)' % (get_clients, human(get_size)), 'get-objs-%d-x%s' % (gb, get_clients), 1))
rows.append(('GET %s time to first byte p50 (ms)' % human(get_size), 'ttfb-p50-%d-x%s' % (gb, get_clients), 1))
rows.append(('GET %s time to first byte p99 (ms)' % human(get_size), 'ttfb-p99-%d-x%s' % (gb, get_clients), 1))
rows.append(('server CPU per %s GET at %s clients (ms)' % (human(get_size), get_clients),
             'cpu-get-%s-x%s' % (get_size, get_clients), 1))
rows.append(('resident memory of all server processes after the GETs (MB)', 'rss-mb', 0))
if cp_on == '1':
    rows.append(('`aws s3 cp` of %s MB up (MB/s)' % cp_mb, 'cp-up', 1))
    rows.append(('`aws s3 cp` of %s MB down (MB/s)' % cp_mb, 'cp-down', 1))
    rows.append(('server CPU per MB, `aws s3 cp` up (ms)', 'cpu-cp-up', 2))
    rows.append(('server CPU per MB, `aws s3 cp` down (ms)', 'cpu-cp-down', 2))
    rows.append(('the AWS CLI\'s own CPU per MB, `aws s3 cp` up (ms)', 'client-cpu-cp-up', 2))
    rows.append(('the AWS CLI\'s own CPU per MB, `aws s3 cp` down (ms)', 'client-cpu-cp-down', 2))
# Each CPU row again without the JIT compiler threads, in one block after the rows as measured.
rows += [(label.replace(' (ms)', ', JIT compiler threads excluded (ms)'), metric.replace('cpu-', 'cpunojit-', 1),
          digits) for label, metric, digits in list(rows) if metric.startswith('cpu-')]

def per_run(system, metric):
    # aws s3 cp: MB/s of each copy from its wall time; a run's figure is the median of its CP_COUNT copies.
    if metric in ('cp-up', 'cp-down'):
        walls = values[(system, 'wall-' + metric)]
        speeds = [float(cp_mb) / w for w in walls]
        n = int(cp_count)
        return [statistics.median(speeds[i:i + n]) for i in range(0, len(speeds), n)]
    if metric.startswith(('cpu-cp-', 'cpunojit-cp-', 'client-cpu-cp-')):
        v = values[(system, metric)]
        n = int(cp_count)
        return [statistics.median(v[i:i + n]) for i in range(0, len(v), n)]
    return values[(system, metric)]

def cell(v, digits):
    return '–' if v is None else format(v, ',.%df' % digits)

load = {s: ', '.join('%.2f' % v for v in values[(s, 'load')]) for s in ('minio', 'shardvault')}
mem = subprocess.run(['awk', '/^MemTotal:/ {printf "%.1f", $2 / 1048576}', '/proc/meminfo'],
                     capture_output=True, text=True).stdout
cores = subprocess.run(['nproc'], capture_output=True, text=True).stdout.strip()
when = '%s-%s-%sT%s:%sZ' % (started[0:4], started[4:6], started[6:8], started[9:11], started[11:13])
times = ('each once' if runs == '1' else
         '%s times each, alternating which went first; each figure the median of the %s runs' % (runs, runs))
jvm = open(out + '/settings.txt').read().splitlines()[1].split('; MinIO')[0]
print(textwrap.fill('Run of %s on this machine (%s cores, %s GiB memory): MinIO and shardvault one after the other '
                    'on the same disk, %s. Load average (1 min) before each system: MinIO %s; shardvault %s. '
                    'The JVM of the services and the bench client: %s.%s'
                    % (when, cores, mem, times, load['minio'], load['shardvault'], jvm,
                       ' The page cache was filled with clean pages before each system (PAGE_CACHE=filled).'
                       if page_cache == 'filled' else ''), 110,
                    break_on_hyphens=False))
print()
print('| %s, %s cores, %s GiB | MinIO | shardvault, real disk, stash | shardvault / MinIO |' % (when, cores, mem))
print('| --- | ---: | ---: | ---: |')
for label, metric, digits in rows:
    m, s = (per_run(x, metric) for x in ('minio', 'shardvault'))
    m = statistics.median(m) if m else None
    s = statistics.median(s) if s else None
    ratio = '%.2fx' % (s / m) if m and s is not None else '–'
    print('| %s | %s | %s | %s |' % (label, cell(m, digits), cell(s, digits), ratio))
PY

if [ "$write_doc" = 1 ]; then
  section="$work/section.md"
  {
    if [ "$page_cache" = filled ]; then
      echo "## Side by side with MinIO, page cache filled first (issue #18)"
    else
      echo "## Side by side with MinIO (issue #18)"
    fi
    echo
    echo "*Generated by \`bench/run-peer-comparison.sh\`; raw outputs in \`bench/results/$(basename "$out")/\`.*"
    echo
    cp_text="" cp_unit=""
    if [ "$cp_on" = 1 ]; then
      cp_text="; \`aws s3 cp\` of a $cp_mb MB file with the AWS CLI's default 8 MiB parts, $cp_count times each way,
        alternating up and down (MB/s over the wall time of the \`aws\` command, the median of the $cp_count;
        the CLI's own CPU per MB beside it, as its one core bounds what a server can show)"
      cp_unit=" (per MB for \`aws s3 cp\`)"
    fi
    echo "MinIO (\`../shared/peers/minio.sh\`: one server, 8 drive directories, EC 4+4) and \`bin/shardvault dev\`
      (2 stash servers, one pod process with the 20 pods of a 16+4 vault on the real disk, 1 coordinator, each its
      own JVM), never both at once, each on a fresh data directory on the same disk, driven by the same
      \`shardvault bench\` client: $warmup uncounted warm-up PUTs; $seq_count sequential PUTs per size on one
      connection with ${pause_ms} ms pauses (\`bench latency\`); $tp_clients clients x $tp_count PUTs of $tp_size
      (\`bench throughput\`); $get_objects objects of $get_size uploaded, $get_warmup uncounted GETs, then each
      object read $get_reads times by $get_clients threads (\`bench ttfb --clients\`, which times the first byte
      of each GET)$cp_text. Server CPU = utime + stime of every server process (MinIO's one; the dev cluster's four
      JVMs) over each phase alone, per request$cp_unit; the rows \"JIT compiler threads excluded\" leave out the
      JVMs' C1/C2 compiler threads (a one-off per process start, still running a few thousand requests after
      one; MinIO has none); memory = VmRSS of the same processes at the end of the GETs. Client and servers
      share the machine: read the ratios." | tr -s ' \n' ' ' | fold -s -w 110 | sed 's/ *$//'
    echo
    echo
    echo '```'
    echo "bench/run-peer-comparison.sh     # RUNS=3 for the medians the goals ask for; counts: see the script"
    echo '```'
    echo
    cat "$out/table.md"
    echo
  } >"$section"
  "$root/bench/replace-doc-section.py" "$root/docs/PERFORMANCE.md" "$section"
  echo "updated docs/PERFORMANCE.md"
fi
echo "results in $out"
