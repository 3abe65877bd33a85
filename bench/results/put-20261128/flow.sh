#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: a fresh dev cluster of ROOT, 1,500 warm-up PUTs, then PUT phases as the peer
# comparison runs them (sequential 256 KiB and 1 MiB with 10 ms pauses, two 16-client loads of 1 MiB); per phase the
# CPU of the four JVMs and of the coordinator from /proc/PID/stat, and of the whole machine from /proc/stat, per PUT.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1
work=/tmp/putpath
if ss -ltn | grep -q ':9000 \|:7400 '; then echo "$name: a cluster still listens; not measuring"; exit 1; fi
rm -rf $work/data; mkdir -p $work/data
"$root/bin/shardvault" dev --data $work/data > $work/cluster-$name.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' $work/cluster-$name.log && break; sleep 0.5; done
grep -q 'S3 endpoint ready at' $work/cluster-$name.log || { echo "$name: the cluster did not start"; kill -TERM $cpid; exit 1; }
endpoint=http://127.0.0.1:9000
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" 2>/dev/null --endpoint "$endpoint" --access-key shardvault-dev --bucket putpath --no-progress; }
ticks() { local a=0 c=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); if tr '\0' ' ' < /proc/$p/cmdline | grep -q shardvault-coordinator; then c=$((c+s)); fi; done; m=$(awk '/^cpu /{print $2+$3+$4+$7+$8}' /proc/stat); echo "$a $m $c"; }
counter() { curl -s http://127.0.0.1:9490/metrics | awk -v n="shardvault_data_$1_total" '$1 ~ "^"n"[{]" {s += $2} END {printf "%d", s}'; }
phase() { local label=$1 n=$2; shift 2; read a0 m0 c0 < <(ticks); d0=$(counter read_decodes); h0=$(counter read_hedges); w0=$(counter write_missing_shards); out=$("$@"); read a1 m1 c1 < <(ticks); d1=$(counter read_decodes); h1=$(counter read_hedges); w1=$(counter write_missing_shards); p50=$(echo "$out" | awk '$1=="run" && $4 ~ /KiB|MiB/ {print $3 " p50=" $8 " obj/s=" $12}' | tr '\n' ' '); echo "$name $label jvms=$(( (a1-a0)*10000/n ))us coordinator=$(( (c1-c0)*10000/n ))us machine=$(( (m1-m0)*10000/n ))us decodes=$((d1-d0)) hedges=$((h1-h0)) missing=$((w1-w0)) [$p50]"; }
start=$(date +%s.%N)
bench latency --count 1500 --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
phase seq256K 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 256KiB
phase seq1M 100 bench latency --count 100 --warmup 0 --pause-ms 10 --sizes 1MiB
phase put16a 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
phase put16b 400 bench throughput --clients 16 --sizes 1MiB --count 400 --ops PUT
echo "$name flow took $(awk -v s=$start -v e=$(date +%s.%N) 'BEGIN{printf "%.0f", e-s}') s"
kids=$(pgrep -P $cpid | tr '\n' ' ')
kill -TERM $cpid; wait $cpid || true
for _ in $(seq 1 240); do alive=0; for k in $kids; do kill -0 $k 2>/dev/null && alive=1; done; [ $alive = 0 ] && break; sleep 0.5; done
for k in $kids; do kill -0 $k 2>/dev/null && { echo "$name: service $k still alive after stop, killed"; kill -KILL $k; }; done; true
