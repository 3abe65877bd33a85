#!/usr/bin/env bash
# usage: scrub-cost.sh NAME on|off|on-nice0   -- PUT p50 and CPU with the scrubber at its default rate, or off;
#   on-nice0: scrubbing at the process's own priority (pod.scrub.nice = 0), as before the scrub thread lowered it
set -euo pipefail
root=${ROOT:-/work/main}; name=$1; mode=$2
data=/tmp/sc/data; rm -rf $data; mkdir -p $data
case "$mode" in
  on) conf='pod.scrub.interval = 1ms' ;;
  on-nice0) conf='pod.scrub.interval = 1ms
pod.scrub.nice = 0' ;;
  off) conf='pod.scrub.bytesPerSecond = 0' ;;
  *) echo "mode is on, off or on-nice0, not $mode" >&2; exit 2 ;;
esac
SHARDVAULT_POD_CONF="$conf" "$root/bin/shardvault" dev --data $data > /tmp/sc/cluster.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/sc/cluster.log && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" --endpoint http://127.0.0.1:9000 --access-key shardvault-dev --bucket scrub-cost --no-progress; }
ticks() { local a=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); done; echo $a; }
scrubbed() { curl -s http://127.0.0.1:9480/metrics | awk '/^shardvault_pod_scrub_bytes_total/ {s+=$2} END {printf "%.0f", s}'; }
bench throughput --clients 8 --sizes 4MiB --count 256 --ops PUT > /dev/null      # 1 GiB for the scrubber to read
bench latency --count 300 --warmup 0 --pause-ms 0 --sizes 256KiB > /dev/null      # warm-up
sleep 5
t0=$(ticks); b0=$(scrubbed); s0=$(date +%s.%N)
bench latency --count 200 --warmup 0 --pause-ms 10 --sizes 256KiB > /tmp/sc/lat-$name.txt
s1=$(date +%s.%N); t1=$(ticks); b1=$(scrubbed)
p50=$(awk '$3=="PUT" {print $7}' /tmp/sc/lat-$name.txt | head -1)
python3 -c "
s0,s1,t0,t1,b0,b1=$s0,$s1,$t0,$t1,$b0,$b1
secs=s1-s0
print(f'$name scrub=$mode: PUT 256KiB p50 $p50 ms; server CPU {(t1-t0)*10/200:.1f} ms per PUT; scrubbed {(b1-b0)/secs/1e6:.1f} MB/s over the phase ({secs:.0f} s)')"
kill -TERM $cpid; wait $cpid || true
