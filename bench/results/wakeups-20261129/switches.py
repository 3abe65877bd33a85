#!/usr/bin/env python3
"""switches.py snap PID... > FILE: every thread's context switches (voluntary, involuntary) and CPU ticks, by process
role and thread name. switches.py diff BEFORE AFTER N: per request, by role and thread group (names without their
numbers), the groups with most voluntary switches first."""
import collections, os, re, sys

def role(pid):
    cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ").decode()
    for r in ("coordinator", "pod", "stash"):
        if f"shardvault-{r}" in cmd:
            return r + ("" if r != "stash" else "-" + pid)
    return "other-" + pid

def snap(pids):
    for pid in pids:
        r = role(pid)
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                status = open(f"/proc/{pid}/task/{tid}/status").read()
                stat = open(f"/proc/{pid}/task/{tid}/stat").read()
            except OSError:
                continue
            name = re.search(r"^Name:\t(.*)$", status, re.M).group(1)
            vol = int(re.search(r"^voluntary_ctxt_switches:\t(\d+)", status, re.M).group(1))
            inv = int(re.search(r"^nonvoluntary_ctxt_switches:\t(\d+)", status, re.M).group(1))
            f = stat[stat.rindex(")") + 2:].split()
            print(r, tid, vol, inv, int(f[11]) + int(f[12]), name.replace(" ", "_"), sep="\t")

def load(path):
    d = {}
    for line in open(path):
        r, tid, vol, inv, ticks, name = line.rstrip("\n").split("\t")
        d[(r, tid)] = (int(vol), int(inv), int(ticks), name)
    return d

def group(name):
    return re.sub(r"\d+", "N", name)

def diff(before, after, n):
    b, a = load(before), load(after)
    sums = collections.defaultdict(lambda: [0, 0, 0])
    for k, (vol, inv, ticks, name) in a.items():
        v0, i0, t0, _ = b.get(k, (0, 0, 0, name))
        g = sums[(k[0].split("-")[0], group(name))]
        g[0] += vol - v0; g[1] += inv - i0; g[2] += ticks - t0
    per_role = collections.defaultdict(lambda: [0, 0, 0])
    for (r, _), s in sums.items():
        for i in range(3):
            per_role[r][i] += s[i]
    print(f"per request (n={n}): role: voluntary switches, involuntary, CPU us")
    for r, s in sorted(per_role.items()):
        print(f"  {r:12} {s[0]/n:8.1f} {s[1]/n:8.1f} {s[2]*10000/n:8.0f}")
    print("by thread group, most voluntary switches first:")
    for (r, g), s in sorted(sums.items(), key=lambda kv: -kv[1][0])[:30]:
        if s[0] or s[2]:
            print(f"  {r:12} {g:40} {s[0]/n:8.1f} {s[1]/n:8.1f} {s[2]*10000/n:8.0f}")

if sys.argv[1] == "snap":
    snap(sys.argv[2:])
else:
    diff(sys.argv[2], sys.argv[3], int(sys.argv[4]))
