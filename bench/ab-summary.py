#!/usr/bin/env python3
"""usage: ab-summary.py KEYS FILE...: for the lines of A/B runs that flows print through flow-lib.sh (a run name such as
A1 or B3, a phase, then its figures), per phase the mean of the A runs and of the B runs of each key and B/A. KEYS is a
comma-separated list of: jvms coordinator pod stash machine gc jit (µs of CPU per request), sync-ms put-many-ms (the
stash meters of results/stashgroup-20261129/stash-meters.sh), put-p50 get-p50 ttfb-p50 (ms), obj/s."""
import re
import sys
from collections import defaultdict

PATTERNS = {
    "jvms": r'jvms=(\d+)us', "coordinator": r'coordinator=(\d+)us', "pod": r'pod=(\d+)us', "stash": r'stash=(\d+)us',
    "machine": r'machine=(\d+)us', "gc": r'gc=(\d+)us', "jit": r'jit=(\d+)us',
    "sync-ms": r'sync mean ([\d.]+) ms', "put-many-ms": r'PUT_MANY \d+, mean ([\d.]+) ms',
    "put-p50": r'PUT p50=([\d.]+)', "get-p50": r'GET p50=([\d.]+)', "ttfb-p50": r'TTFB p50=([\d.]+)',
    "obj/s": r'(?:PUT|GET) p50=[\d.]+ obj/s=([\d.]+)',
}


def main(keys, paths):
    unknown = [k for k in keys if k not in PATTERNS]
    if unknown:
        sys.exit(f"unknown keys {unknown}; known: {' '.join(PATTERNS)}")
    values = defaultdict(lambda: defaultdict(list))  # (phase, key) -> variant -> values
    runs = defaultdict(set)
    phases = []
    for path in paths:
        for line in open(path):
            m = re.match(r'([A-Z])(\d+) (\S+) (.*)', line)
            if not m:
                continue
            variant, run, phase, rest = m.groups()
            for key in keys:
                found = re.search(PATTERNS[key], rest)
                if found:
                    if phase not in phases:
                        phases.append(phase)
                    values[(phase, key)][variant].append(float(found.group(1)))
                    runs[variant].add(run)
    print("| phase | " + " | ".join(f"{k}: A / B (B/A)" for k in keys) + " |")
    print("| --- |" + " ---: |" * len(keys))
    for phase in phases:
        cells = []
        for key in keys:
            a, b = values[(phase, key)]["A"], values[(phase, key)]["B"]
            if a and b:
                ma, mb = sum(a) / len(a), sum(b) / len(b)
                digits = 0 if ma > 100 else 2
                cells.append(f"{ma:,.{digits}f} / {mb:,.{digits}f} ({mb / ma:.2f})")
            else:
                cells.append("-")
        print(f"| {phase} | " + " | ".join(cells) + " |")
    print("runs: " + ", ".join(f"{v} {len(r)}" for v, r in sorted(runs.items())))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1].split(","), sys.argv[2:])
