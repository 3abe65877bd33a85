#!/usr/bin/env python3
"""summarize.py FILE...: means by side (the run name's letter) and operation of the rounds from FROM (4) on, of the
phase lines flow.sh printed: CPU per request of the four JVMs, the coordinator, the pod process, the stash servers,
and the GC and JIT threads' part (us); with the runs' spread of the four JVMs' figure."""
import collections, os, re, sys

start = int(os.environ.get('FROM', '4'))
seen = collections.defaultdict(list)
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r'([A-Z])(\d) (put16|get16)-(\d+) jvms=(\d+)us coordinator=(\d+)us pod=(\d+)us stash=(\d+)us '
                     r'.*gc=(\d+)us jit=(\d+)us', line)
        if m and int(m.group(4)) >= start:
            seen[(m.group(3), m.group(1))].append(tuple(int(m.group(i)) for i in range(5, 11)))
names = ['jvms', 'coordinator', 'pod', 'stash', 'gc', 'jit']
for key in sorted(seen):
    rows = seen[key]
    means = ' '.join(f'{n}={sum(r[i] for r in rows) / len(rows):,.0f}' for i, n in enumerate(names))
    print(f'{key[0]} {key[1]}: {len(rows)} phases, {means}, jvms {min(r[0] for r in rows):,}-{max(r[0] for r in rows):,}')
