#!/usr/bin/env python3
"""frames.py PROFILE_DIR...: samples of the four JVMs' profiles (bench/profile-cluster.sh's .collapsed files) whose
stacks hold each frame c7943cb cut, per directory; the profiles before and after that commit are compared this way
in docs/PERFORMANCE.md ("How the CPU per request settles")."""
import collections, glob, sys

FRAMES = ['keyMayExist', 'MemTable::Get', 'ShardId.hashCode', 'ShardId.equals', 'ServerKey.equals',
          'ServerKey.hashCode', 'ClientKey.equals', 'ClientKey.hashCode', 'PodSlot.equals', 'PodSlot.hashCode',
          'HttpDates.format', 'newRequestId', 'isValidBucket']
for d in sys.argv[1:]:
    hits, total = collections.Counter(), 0
    for path in glob.glob(d + '/*.collapsed'):
        for line in open(path):
            stack, n = line.rsplit(' ', 1)
            total += int(n)
            for f in FRAMES:
                if f in stack:
                    hits[f] += int(n)
    print(d, 'samples', total, ' '.join(f'{f}={hits[f]}' for f in FRAMES))
