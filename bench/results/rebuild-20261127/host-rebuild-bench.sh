#!/usr/bin/env bash
# usage: host-rebuild-bench.sh NAME "PODS" OBJECTS   (ROOT: checkout; objects of 4 MiB; PODS e.g. "7" or "4 5 6 7")
# A fresh dev cluster (unthrottled rebuild, jobs looked for every 200 ms, a 3 s gather delay), OBJECTS
# objects of 4 MiB from 8 clients, the flush, then every shard file of PODS deleted and one
# `admin pod rebuild` per pod started one after the other: they run in one walk. Reports the walk's own
# time (the coordinator log's first "runs from file" to its last "done:"), the shard bytes rebuilt, and
# the server processes' CPU from /proc over the rebuild (from the first start to the last DONE).
set -euo pipefail
root=${ROOT:-/work/main}; name=$1; pods=$2; objects=${3:-512}
work=/tmp/hrb; data=$work/data; rm -rf $work; mkdir -p $data
SHARDVAULT_COORDINATOR_CONF="repair.rebuild.bytesPerSecond = 1GiB
repair.rebuild.interval = 200ms
repair.rebuild.gatherDelay = 3s" "$root/bin/shardvault" dev --data $data > $work/cluster.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' $work/cluster.log && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" --endpoint http://127.0.0.1:9000 --access-key shardvault-dev --bucket rebuild-bench --no-progress; }
ticks() { local a=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); done; echo $a; }
bench throughput --clients 8 --sizes 4MiB --count $objects --ops PUT > $work/load-$name.txt
sleep 15   # pods flush, stash purges
before=0
for p in $pods; do
  before=$((before + $(du -sb $data/pod-$p/tome0 | cut -f1)))
  find $data/pod-$p/tome0 -name '*.shard' -delete
done
sync; sleep 3
t0=$(ticks)
for p in $pods; do "$root/bin/shardvault" admin pod rebuild $p >> $work/start-$name.txt; done
n=$(echo $pods | wc -w)
for _ in $(seq 1 2400); do
  st=$("$root/bin/shardvault" admin pod rebuild-status --json 2>/dev/null || true)
  [ "$(echo "$st" | grep -Eo '"state" *: *"DONE"' | wc -l)" -ge "$n" ] && break
  sleep 0.5
done
t1=$(ticks)
after=0
for p in $pods; do after=$((after + $(du -sb $data/pod-$p/tome0 | cut -f1))); done
log=$(ls $data/logs/coordinator*.log 2>/dev/null | head -1); log=${log:-$work/cluster.log}
first=$(grep -h 'runs from file' $log | head -1 | cut -c1-23)
last=$(grep -h 'pod rebuild job .* done:' $log | tail -1 | cut -c1-23)
python3 - "$name" "$pods" "$t0" "$t1" "$before" "$after" "$first" "$last" <<'PY'
import sys, datetime
name, pods, t0, t1, before, after, first, last = sys.argv[1:]
def ts(s):
    s = s.strip().replace('T', ' ')
    for f in ('%Y-%m-%d %H:%M:%S.%f', '%H:%M:%S.%f'):
        try:
            return datetime.datetime.strptime(s[:23] if f.startswith('%Y') else s[:12], f)
        except ValueError:
            pass
    raise SystemExit('cannot read log time ' + repr(s))
secs = (ts(last) - ts(first)).total_seconds()
cpu = (int(t1) - int(t0)) / 100.0
b = int(after)
print(f"{name}: pods {pods}; tome bytes {int(before)/1e6:.1f} MB -> deleted -> {b/1e6:.1f} MB; walk {secs:.1f} s "
      f"({first.strip()} .. {last.strip()}) = {b/secs/1e6:.1f} MB/s of rebuilt shard; server CPU {cpu:.1f} s "
      f"(first start to last DONE, 3 s gather included) = {cpu/(b/1e9):.1f} CPU s per GB rebuilt")
PY
kill -TERM $cpid; wait $cpid || true
