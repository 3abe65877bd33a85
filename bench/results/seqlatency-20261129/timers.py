#!/usr/bin/env python3
"""timers.py BEFORE AFTER: the mean of every Micrometer timer that moved between two scrapes of the services'
Prometheus endpoints (files of 'port<TAB>line'), by timer and tags, in ms, with its count; slowest first."""
import collections, re, sys

def load(path):
    d = {}
    for line in open(path):
        port, _, metric = line.rstrip("\n").partition("\t")
        m = re.match(r'^(\w+)_seconds_(sum|count)(\{[^}]*\})? ([0-9.eE+-]+)$', metric)
        if m:
            d[(port, m.group(1), m.group(3) or "", m.group(2))] = float(m.group(4))
    return d

b, a = load(sys.argv[1]), load(sys.argv[2])
rows = []
for (port, name, tags, kind), v in a.items():
    if kind != "count":
        continue
    n = v - b.get((port, name, tags, "count"), 0)
    if n <= 0:
        continue
    s = a[(port, name, tags, "sum")] - b.get((port, name, tags, "sum"), 0)
    rows.append((s / n * 1000, n, port, name, tags))
for mean, n, port, name, tags in sorted(rows, reverse=True):
    print(f"{mean:9.3f} ms  n={n:7.0f}  {port} {name} {tags}")
