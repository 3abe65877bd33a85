#!/usr/bin/env bash
# What the stash buys, end to end (issue #11): starts `bin/shardvault dev` three times and runs the bench
# `latency` and `throughput` scenarios against each, then writes one combined table, the goal ratios and
# the charts:
#   1. hdd-stash     pods on the SIMULATED 7,200 RPM disk, with the stash
#   2. hdd-nostash   the same pods, without the stash
#   3. disk-nostash  pods on the real disk, without the stash
# Each cluster gets a fresh data directory and, before anything is timed, WARMUP_COUNT uncounted uploads
# per size plus WARMUP_CONCURRENT_COUNT uncounted uploads per size at 8 clients. Fresh JVMs compile the
# write path for thousands of PUTs: profiled for issue #11, the coordinator's C2 compiler thread still
# spent 9-12 ms of CPU per PUT after 1,000-1,500 sequential 256 KiB PUTs and ~2-4 ms after 2,700 (it
# compiles ~10,000 methods: S3, SigV4, Ratis, gRPC, Netty, Micrometer), on 2 vCPUs shared by 4 service
# JVMs and the client. With the old default of 150, the clusters were timed while compiling, the stash
# cluster (two more JVMs to warm) more so than the others.
# ORDER sets the order of the clusters (default: the stash cluster in the middle, so neither the first
# cluster's cold machine nor the last one's busier disk is all on one side). Counts are modest by default
# (the machine is small and shared); raise them with the environment variables below. Output goes to
# bench/results/<UTC timestamp>/.
#
#   LATENCY_COUNT (30)  THROUGHPUT_COUNT (64)  THROUGHPUT_CLIENTS (1,8,32)  THROUGHPUT_SIZES (256KiB,1MiB)
#   WARMUP_COUNT (1500)  WARMUP_CONCURRENT_COUNT (400)  ORDER ("hdd-nostash hdd-stash disk-nostash")
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
latency_count="${LATENCY_COUNT:-30}"
tp_count="${THROUGHPUT_COUNT:-64}"
tp_clients="${THROUGHPUT_CLIENTS:-1,8,32}"
tp_sizes="${THROUGHPUT_SIZES:-256KiB,1MiB}"
warmup_count="${WARMUP_COUNT:-1500}"
warmup_concurrent="${WARMUP_CONCURRENT_COUNT:-400}"
order="${ORDER:-hdd-nostash hdd-stash disk-nostash}"
out="${OUT_DIR:-$root/bench/results/$(date -u +%Y%m%dT%H%M%SZ)}"
work="$(mktemp -d)"
mkdir -p "$out"

if pgrep -f 'bin/shardvault dev' >/dev/null; then
  echo "run-stash-comparison: another 'bin/shardvault dev' is running; stop it first" >&2
  exit 2
fi

dev_pid=""
stop_dev() {
  if [ -n "$dev_pid" ] && kill -0 "$dev_pid" 2>/dev/null; then
    kill -TERM "$dev_pid"
    wait "$dev_pid" || true
  fi
  dev_pid=""
}
trap 'stop_dev; rm -rf "$work"' EXIT

# Builds both jars once, before any timing.
(cd "$root" && ./mvnw -B -q -DskipTests package -pl jmh -am)

run_config() {
  local label="$1"; shift
  local log="$out/dev-$label.log"
  echo "== $label: bin/shardvault dev $* =="
  "$root/bin/shardvault" dev --data "$work/$label" "$@" >"$log" 2>&1 &
  dev_pid=$!
  for _ in $(seq 1 240); do
    grep -q 'S3 endpoint ready at' "$log" && break
    kill -0 "$dev_pid" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.5
  done
  grep -q 'S3 endpoint ready at' "$log" || { echo "$label: cluster did not start" >&2; exit 1; }
  echo "$label: warm-up, $warmup_count + $warmup_concurrent (8 clients) uncounted uploads per size;" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  "$root/bin/shardvault" bench latency --label "$label-warmup" --count "$warmup_count" --warmup 0 --pause-ms 0 \
    --no-progress >/dev/null
  "$root/bin/shardvault" bench throughput --label "$label-warmup" --count "$warmup_concurrent" --clients 8 \
    --sizes "$tp_sizes" --no-progress >/dev/null
  echo "$label: measuring; load average $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
  "$root/bin/shardvault" bench latency --label "$label" --count "$latency_count" --no-progress \
    --out "$out/results.tsv" | tee "$out/latency-$label.txt"
  "$root/bin/shardvault" bench throughput --label "$label" --count "$tp_count" --clients "$tp_clients" \
    --sizes "$tp_sizes" --no-progress --out "$out/results.tsv" | tee "$out/throughput-$label.txt"
  stop_dev
}

for label in $order; do
  case "$label" in
    hdd-stash) run_config hdd-stash --simulated-hdd ;;
    hdd-nostash) run_config hdd-nostash --simulated-hdd --no-stash ;;
    disk-nostash) run_config disk-nostash --no-stash ;;
    *) echo "run-stash-comparison: unknown cluster $label in ORDER" >&2; exit 2 ;;
  esac
done

{
  echo "# bench/run-stash-comparison.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $(java -version 2>&1 | head -1)"
  echo "# LATENCY_COUNT=$latency_count THROUGHPUT_COUNT=$tp_count THROUGHPUT_CLIENTS=$tp_clients THROUGHPUT_SIZES=$tp_sizes"
  echo "# WARMUP_COUNT=$warmup_count WARMUP_CONCURRENT_COUNT=$warmup_concurrent ORDER=\"$order\""
  sed 's/^/# /' "$out/load.txt"
  "$root/bin/shardvault" bench combine "$out/results.tsv" --plot "$out/charts" \
    --goals hdd-stash,hdd-nostash,disk-nostash
} | tee "$out/combined.txt"
echo "results in $out"
