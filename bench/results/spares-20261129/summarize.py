#!/usr/bin/env python3
"""usage: summarize.py FILE...: per phase, the means of the A runs and of the B runs (ab.sh's lines) and B/A, for
the four JVMs' and the stash servers' CPU per PUT, the stash's sync and PUT_MANY mean times, PUT p50 and PUT/s."""
import re
import sys
from collections import defaultdict

values = defaultdict(lambda: defaultdict(list))  # (phase, key) -> variant -> values
phases = []
for path in sys.argv[1:]:
    for line in open(path):
        m = re.match(r'([AB])\d+ (\S+) (.*)', line)
        if not m:
            continue
        variant, phase, rest = m.groups()
        if phase not in phases and re.match(r'seq|put', phase):
            phases.append(phase)
        for key, pattern in (("jvms", r'jvms=(\d+)us'), ("stash", r'stash=(\d+)us'), ("p50", r'PUT p50=([\d.]+)'),
                             ("obj/s", r'obj/s=([\d.]+)'), ("sync ms", r'sync mean ([\d.]+) ms'),
                             ("PUT_MANY ms", r'PUT_MANY \d+, mean ([\d.]+) ms')):
            found = re.search(pattern, rest)
            if found:
                values[(phase, key)][variant].append(float(found.group(1)))

keys = ["jvms", "stash", "sync ms", "PUT_MANY ms", "p50", "obj/s"]
print("| phase | " + " | ".join(f"{k}: A / B (B/A)" for k in keys) + " |")
print("| --- |" + " ---: |" * len(keys))
for phase in phases:
    cells = []
    for key in keys:
        a, b = values[(phase, key)]["A"], values[(phase, key)]["B"]
        if a and b:
            ma, mb = sum(a) / len(a), sum(b) / len(b)
            cells.append(f"{ma:,.{0 if ma > 100 else 2}f} / {mb:,.{0 if mb > 100 else 2}f} ({mb / ma:.2f})")
        else:
            cells.append("-")
    print(f"| {phase} | " + " | ".join(cells) + " |")
print("runs: A " + str(len(values[(phases[0], 'jvms')]['A'])) + ", B " + str(len(values[(phases[0], 'jvms')]['B'])))
