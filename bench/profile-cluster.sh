#!/usr/bin/env bash
# Where the CPU of a request goes (issue #18): starts `bin/shardvault dev` on a fresh data directory, warms it
# up, attaches async-profiler (tools.profiler:async-profiler from Maven Central, fetched by the Maven wrapper)
# to each of its four JVMs (coordinator, pod process, two stash servers), runs one load with the profiler on,
# and writes into OUT_DIR:
#   <process>-<pid>.collapsed / .html   CPU profile per process, stacks with thread names (flame graph in .html)
#   cpu.txt                              CPU ticks of each process over the load, from /proc/PID/stat
#   components.md                        bench/profile-components.py: CPU us per request by component
#   load.txt                             the bench tool's output
# With EVENT=alloc it profiles allocations instead (flame graphs only).
# With SYSTEM=minio it profiles the peer instead (../shared/peers/minio.sh, or MINIO_SH: one process, 8 drive
# directories, EC 4+4) the same way, with `perf record` (task-clock, one sample per INTERVAL ns of CPU, frame-pointer
# call graphs, which Go keeps) folded by bench/perf-collapse.py into minio-<pid>.collapsed; no flame graph.
#
#   OP (PUT; GET reads GET_OBJECTS objects uploaded first; CP uploads a CP_MB MB file with `aws s3 cp`, the
#   AWS CLI's multipart of 8 MiB parts, CP_COPIES times, and counts per MB)  SIZE (1MiB)  CLIENTS (16)  COUNT (400)
#   CP_MB (400)  CP_COPIES (2)  AWS_CLI (the it/interop/install.sh one)
#   WARMUP (1500 sequential PUTs, half 256 KiB, half 1 MiB, then 2 loads of the profiled kind)
#   GET_OBJECTS (200)  INTERVAL (1000000 ns of CPU per sample)  EVENT (cpu)  OUT_DIR (bench/results/profile-<UTC>)
#   SHARDVAULT_JVM_OPTS (passed to every JVM, as bin/shardvault dev does)
# Compare two profiles (of one system or of both): bench/profile-components.py COUNT DIR_BEFORE DIR_AFTER
# Never run it beside a build or a test suite: the profile is of this machine's two cores.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/bench/systems-lib.sh"
op="${OP:-PUT}"
size="${SIZE:-1MiB}"
clients="${CLIENTS:-16}"
count="${COUNT:-400}"
warmup="${WARMUP:-1500}"
get_objects="${GET_OBJECTS:-200}"
interval="${INTERVAL:-1000000}"
event="${EVENT:-cpu}"
system="${SYSTEM:-shardvault}"
minio_sh="${MINIO_SH:-$root/../shared/peers/minio.sh}"
cp_mb="${CP_MB:-400}"
cp_copies="${CP_COPIES:-2}"
aws="${AWS_CLI:-$HOME/.cache/shardvault/interop/awscli/bin/aws}"
ap_version="4.2"
out="${OUT_DIR:-$root/bench/results/profile-$(date -u +%Y%m%dT%H%M%SZ)}"
work="$(mktemp -d)"
minio_port=9100

die() {
  echo "profile-cluster: $*" >&2
  exit 2
}

case "$op" in PUT | GET) ;; CP) count=$((cp_mb * cp_copies)) ;; *) die "OP must be PUT, GET or CP" ;; esac
if [ "$op" = CP ] && [ ! -x "$aws" ]; then
  die "no AWS CLI at $aws (it/interop/install.sh installs it, or set AWS_CLI)"
fi
case "$system" in shardvault | minio) ;; *) die "SYSTEM must be shardvault or minio" ;; esac
if pgrep -f 'bin/shardvault dev' >/dev/null; then
  die "another 'bin/shardvault dev' is running; stop it first"
fi
if [ "$system" = minio ]; then
  [ -x "$minio_sh" ] || die "no MinIO launcher at $minio_sh (set MINIO_SH)"
  command -v perf >/dev/null || die "perf (Debian: linux-perf) is not on the PATH"
  [ "$event" = cpu ] || die "SYSTEM=minio profiles CPU only"
  ! ss -ltn | grep -q ":$minio_port " || die "port $minio_port is taken; stop what listens there first"
else
  command -v jcmd >/dev/null || die "jcmd (from the JDK) is not on the PATH"
fi

if [ "$system" = shardvault ]; then
  # async-profiler's agent, from the Maven Central artifact (its jar carries the native libraries).
  ap_jar="$HOME/.m2/repository/tools/profiler/async-profiler/$ap_version/async-profiler-$ap_version.jar"
  if [ ! -f "$ap_jar" ]; then
    "$root/mvnw" -B -q -f "$root/pom.xml" dependency:get -Dartifact="tools.profiler:async-profiler:$ap_version" \
      -Dtransitive=false || die "could not fetch async-profiler $ap_version from Maven Central"
  fi
  unzip -q -o -j "$ap_jar" "linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')/libasyncProfiler.so" -d "$work"
  agent="$work/libasyncProfiler.so"
fi
# Kernel frames (the second table of profile-components.py) need perf events with kernel stacks.
if [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)" -gt 1 ]; then
  echo "profile-cluster: kernel.perf_event_paranoid is above 1, so the profiles will have no kernel frames" \
    "(as root: sysctl kernel.perf_event_paranoid=1)" >&2
fi

cluster_pid=""
stop_cluster() {
  if [ -n "$cluster_pid" ] && kill -0 "$cluster_pid" 2>/dev/null; then
    kill -TERM "$cluster_pid"
    wait "$cluster_pid" || true
  fi
}
trap 'stop_cluster; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

mkdir -p "$out"
# The component table sums every profile in the directory: one left from an earlier run would be counted too.
if compgen -G "$out/*.collapsed" >/dev/null; then
  die "$out already holds profiles (*.collapsed); give an empty OUT_DIR"
fi
MINIO_SH="$minio_sh" MINIO_PORT="$minio_port" start_system "$system" "$work/data" "$out/cluster.log"
cluster_pid=$sys_pid

# The secret reaches the bench tool through its environment, not its command line (ps shows that to all).
bench() {
  SHARDVAULT_SECRET_KEY="$secret" "$root/bin/shardvault" bench "$@" --endpoint "$endpoint" --access-key "$access" \
    --bucket profile --no-progress
}

# jcmd's argument parser splits on '=' and ',', so the agent's options go in as one quoted word.
agent_command() {
  jcmd "$1" JVMTI.agent_load "$agent" "\"$2\"" >/dev/null
}

# The secret reaches the AWS CLI through its environment too.
aws_s3() {
  AWS_ACCESS_KEY_ID="$access" AWS_SECRET_ACCESS_KEY="$secret" AWS_DEFAULT_REGION=us-east-1 \
    AWS_CONFIG_FILE="$work/aws-config" AWS_SHARED_CREDENTIALS_FILE="$work/aws-credentials" \
    "$aws" --endpoint-url "$endpoint" s3 "$@" --only-show-errors --no-progress
}

load() {
  if [ "$op" = PUT ]; then
    bench throughput --clients "$clients" --sizes "$size" --count "$count" --ops PUT
  elif [ "$op" = CP ]; then
    local TIMEFORMAT="aws s3 cp of $cp_mb MB up: %R s"
    for i in $(seq 1 "$cp_copies"); do
      { time aws_s3 cp "$work/cp-file" "s3://profile/cp-$i"; } 2>&1
    done
  else
    bench ttfb --sizes "$size" --objects "$get_objects" --clients "$clients" --run-id profile --only read \
      --count "$count" --warmup 0
  fi
}

if [ "$op" = CP ]; then
  head -c "$((cp_mb * 1000000))" /dev/urandom >"$work/cp-file"
  printf '[default]\ns3 =\n    addressing_style = path\n' >"$work/aws-config"
fi
echo "profile-cluster: warm-up ($warmup sequential PUTs, then two loads)"
bench latency --count "$((warmup / 2))" --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB >/dev/null
if [ "$op" = GET ]; then
  bench ttfb --sizes "$size" --objects "$get_objects" --clients "$clients" --run-id profile --only upload >/dev/null
fi
load >/dev/null
load >/dev/null

pids=""
if [ "$system" = minio ]; then
  pids="$cluster_pid:minio"
else
  for p in $(pgrep -P "$cluster_pid"); do
    [ "$(cat "/proc/$p/comm")" = java ] || continue
    args="$(tr '\0' ' ' <"/proc/$p/cmdline")"
    name="$(grep -o 'shardvault-[a-z]*-' <<<"$args" | head -1 | sed 's/shardvault-//; s/-$//')"
    port="$(grep -o -- '--bind 127.0.0.1:[0-9]*' <<<"$args" | sed 's/.*://' || true)"
    pids="$pids $p:$name$port"
  done
fi
[ -n "$pids" ] || die "found no server processes"

echo "$interval" >"$out/interval"
# start_profiler PID, stop_profiler PID FILE (FILE.collapsed, and FILE.html where the profiler draws one).
if [ "$system" = minio ]; then
  # One process: one perf.
  start_profiler() {
    perf record -q -e task-clock -c "$interval" -g -p "$1" -o "$work/perf.data" 2>"$work/perf.log" &
    perf_pid=$!
  }
  stop_profiler() {
    kill -INT "$perf_pid"
    wait "$perf_pid" || true
    perf script -i "$work/perf.data" 2>/dev/null | "$root/bench/perf-collapse.py" >"$2.collapsed"
  }
else
  start_profiler() {
    if [ "$event" = alloc ]; then
      agent_command "$1" "start,event=alloc,threads"
    else
      agent_command "$1" "start,event=cpu,interval=$interval,threads"
    fi
  }
  stop_profiler() {
    agent_command "$1" "dump,file=$2.collapsed,collapsed"
    agent_command "$1" "stop,file=$2.html"
  }
fi
perf_pid=""
for entry in $pids; do
  start_profiler "${entry%%:*}"
done
ticks() { for entry in $pids; do sed 's/^.*) //' "/proc/${entry%%:*}/stat" | awk '{print $12 + $13}'; done; }
# perf takes a moment to attach: the CPU ticks start counting after it has.
[ -z "$perf_pid" ] || sleep 1
before="$(ticks)"
if [ "$op" = CP ]; then
  echo "profile-cluster: profiling $cp_copies uploads of $cp_mb MB by aws s3 cp (figures per MB)"
else
  echo "profile-cluster: profiling $count ${op}s of $size from $clients clients"
fi
load | tee "$out/load.txt"
after="$(ticks)"
for entry in $pids; do
  stop_profiler "${entry%%:*}" "$out/${entry#*:}-${entry%%:*}"
done
paste <(tr ' ' '\n' <<<"${pids# }") <(echo "$before") <(echo "$after") |
  awk -v hz="$(getconf CLK_TCK)" -v n="$count" '{split($1, a, ":"); ms = ($3 - $2) * 1000 / hz;
    printf "%-12s %8.0f ms CPU  %6.2f ms per request\n", a[2], ms, ms / n}' | tee "$out/cpu.txt"
if [ "$event" = cpu ]; then
  "$root/bench/profile-components.py" "$count" "$out" | tee "$out/components.md"
fi
echo "profile-cluster: wrote $out"
