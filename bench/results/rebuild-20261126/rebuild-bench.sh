#!/usr/bin/env bash
# usage: rebuild-bench.sh NAME RATE_BYTES OBJECTS   (ROOT: checkout; objects of 4 MiB)
set -euo pipefail
root=${ROOT:-/work/main}; name=$1; rate=$2; objects=${3:-600}
data=/tmp/rb/data; rm -rf $data; mkdir -p $data
SHARDVAULT_COORDINATOR_CONF="repair.rebuild.bytesPerSecond = $rate${EXTRA:+
$EXTRA}" "$root/bin/shardvault" dev --data $data > /tmp/rb/cluster.log 2>&1 &
cpid=$!
for _ in $(seq 1 240); do grep -q 'S3 endpoint ready at' /tmp/rb/cluster.log && break; sleep 0.5; done
bench() { SHARDVAULT_SECRET_KEY=shardvault-dev-secret "$root/bin/shardvault" bench "$@" --endpoint http://127.0.0.1:9000 --access-key shardvault-dev --bucket rebuild-bench --no-progress; }
ticks() { local a=0; for p in $(pgrep -P $cpid); do [ "$(cat /proc/$p/comm)" = java ] || continue; s=$(sed 's/^.*) //' /proc/$p/stat | awk '{print $12+$13}'); a=$((a+s)); done; echo $a; }
bench throughput --clients 8 --sizes 4MiB --count $objects --ops PUT > /tmp/rb/load-$name.txt
sleep 15   # pods flush, stash purges
before_files=$(find $data/pod-7/tome0 -name '*.shard' | wc -l)
before_bytes=$(du -sb $data/pod-7/tome0 | cut -f1)
find $data/pod-7/tome0 -name '*.shard' -delete
sync; sleep 3
t0=$(ticks); s0=$(date +%s.%N)
"$root/bin/shardvault" admin pod rebuild 7 > /tmp/rb/start-$name.txt
for _ in $(seq 1 1200); do
  st=$("$root/bin/shardvault" admin pod rebuild-status --json 2>/dev/null || true)
  echo "$st" | grep -Eq '"state" *: *"DONE"' && break
  sleep 0.5
done
s1=$(date +%s.%N); t1=$(ticks)
echo "$st" > /tmp/rb/status-$name.json
after_files=$(find $data/pod-7/tome0 -name '*.shard' | wc -l)
after_bytes=$(du -sb $data/pod-7/tome0 | cut -f1)
python3 - "$name" "$rate" "$s0" "$s1" "$t0" "$t1" "$before_files" "$after_files" "$before_bytes" "$after_bytes" <<'PY'
import sys,json
name,rate,s0,s1,t0,t1,bf,af,bb,ab=sys.argv[1:]
secs=float(s1)-float(s0); cpu=(int(t1)-int(t0))/100.0
st=json.load(open('/tmp/rb/status-%s.json'%name))
job=st[0] if isinstance(st,list) else st
if isinstance(job,dict) and 'jobs' in job: job=job['jobs'][0]
b=int(ab)
jb=job.get('bytesRebuilt',0); jsecs=(job.get('updatedAtMillis',0)-job.get('startedAtMillis',0))/1000.0
print(f"{name}: job says {jb/1e6:.1f} MB rebuilt in {jsecs:.1f} s = {jb/max(jsecs,1e-9)/1e6:.1f} MB/s (throttle {int(rate)/1e6:.1f} MB/s = {int(rate)/2**20:.0f} MiB/s); CPU per GB of job bytes {cpu/(jb/1e9) if jb else 0:.1f} s")
print(f"{name}: throttle {int(rate)/2**20:.0f} MiB/s; shard files {bf} -> deleted -> {af}; tome bytes {int(bb)/1e6:.1f} MB -> {b/1e6:.1f} MB; "
      f"wall {secs:.1f} s (incl. status polling); {b/secs/1e6:.1f} MB/s of rebuilt shard (tome bytes / wall); "
      f"cluster CPU {cpu:.1f} s = {cpu/(b/1e9):.1f} CPU s per GB rebuilt")
print(json.dumps(job)[:600])
PY
kill -TERM $cpid; wait $cpid || true
