#!/usr/bin/env bash
# usage: ROOT=checkout flow.sh NAME: how long a stash server's group commit waits on each of its two syncs. A fresh
# dev cluster of ROOT, WARMUP (3000) sequential PUTs (so that the chunk log's partitions write into spare segment
# files), then 200 sequential PUTs of 256 KiB with 10 ms pauses while `strace -T` records the first stash server's
# fdatasync/fsync calls; prints, per file kind (chunk log segment, RocksDB WAL, other), the calls and their time
# (p50, mean). strace slows the traced process, so read the syncs' lengths, not the PUTs'. Run it as run.sh does.
set -euo pipefail
root=${ROOT:?a built checkout}; name=$1; work=/tmp/stashsync; bucket=stashsync
source "$(cd "$(dirname "$0")/../.." && pwd)/flow-lib.sh"
flow_start
bench latency --count "$(( ${WARMUP:-3000} / 2 ))" --warmup 0 --pause-ms 0 --sizes 256KiB,1MiB > /dev/null
stash=
for k in $(pgrep -P $cpid); do
  if [ -z "$stash" ] && tr '\0' ' ' < /proc/$k/cmdline | grep -q shardvault-stash; then stash=$k; fi
done
strace -f -tt -T -e trace=fdatasync,fsync -p "$stash" -o "$work/strace-$name.txt" &
tracer=$!
sleep 2
ls -l /proc/$stash/fd > "$work/fds-$name.txt"
phase seq256 200 bench latency --count 200 --warmup 0 --pause-ms 10 --sizes 256KiB
ls -l /proc/$stash/fd >> "$work/fds-$name.txt"
kill -INT $tracer; wait $tracer 2>/dev/null || true
python3 - "$work/strace-$name.txt" "$work/fds-$name.txt" "$name" <<'PY'
import re, sys, statistics
trace, fds, name = sys.argv[1:]
kind = {}
for line in open(fds):
    m = re.search(r' (\d+) -> (.*)$', line)
    if m:
        base = m.group(2).rsplit('/', 1)[-1]
        kind[m.group(1)] = ('segment' if re.fullmatch(r'(seg|spare)-[0-9a-f]{16}\.log', base)
                            else 'wal' if re.fullmatch(r'\d+\.log', base) else 'other')
calls = []
pending = {}  # pid -> fd of a sync strace printed as unfinished (another thread's call came between)
for line in open(trace):
    m = re.match(r'(\d+)\s+(\d+):(\d+):([\d.]+) (?:(fdatasync|fsync)\((\d+)(?:\)\s+= \S+ <([\d.]+)>| <unfinished)'
                 r'|<\.\.\. (?:fdatasync|fsync) resumed>\) += \S+ <([\d.]+)>)', line)
    if not m:
        continue
    pid, fd, whole, resumed = m.group(1), m.group(6), m.group(7), m.group(8)
    if fd is not None and whole is None:
        pending[pid] = fd
        continue
    if resumed is not None:
        fd, whole = pending.pop(pid, None), resumed
        if fd is None:
            continue
    calls.append((pid, kind.get(fd, 'fd' + fd), float(whole) * 1000))
by = {}
for _, k, ms in calls:
    by.setdefault(k, []).append(ms)
for k, v in sorted(by.items()):
    print(f"{name} {k}: {len(v)} syncs, p50 {statistics.median(v):.3f} ms, mean {statistics.mean(v):.3f} ms")
PY
flow_stop
