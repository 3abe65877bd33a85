#!/usr/bin/env python3
"""Folds `perf script` output (call graphs of one process) into collapsed stacks as async-profiler writes them.

Usage: perf script -i perf.data | perf-collapse.py > PROCESS-PID.collapsed
Each line: '[thread name];root frame;...;leaf frame COUNT'. Kernel frames get the suffix '_[k]' that
async-profiler gives them, so bench/profile-components.py reads both alike (its kernel table matches on it).
"""
import collections
import re
import sys

# An event's header: "comm  pid/tid  [cpu]  time:  period event:" (perf script's default fields).
HEADER = re.compile(r"^(\S.*?)\s+\d+(?:/\d+)?\s+")
# A frame: "\t  ip symbol+offset (dso)".
FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.+?)\s+\((.*)\)$")


def main():
    stacks = collections.Counter()
    thread, frames = None, []

    def flush():
        if thread is not None:
            stacks[";".join([f"[{thread}]"] + frames[::-1])] += 1

    for line in sys.stdin:
        line = line.rstrip("\n")
        if not line.strip():
            flush()
            thread, frames = None, []
            continue
        frame = FRAME.match(line)
        if frame and thread is not None:
            symbol = re.sub(r"\+0x[0-9a-f]+$", "", frame.group(1))
            if symbol == "[unknown]":
                symbol = frame.group(2).rsplit("/", 1)[-1]
            if "kernel.kallsyms" in frame.group(2) or frame.group(2).startswith("[kernel"):
                symbol += "_[k]"
            frames.append(symbol)
            continue
        header = HEADER.match(line)
        if header:
            flush()
            thread, frames = header.group(1).strip(), []
    flush()
    for stack, count in stacks.items():
        print(f"{stack} {count}")


if __name__ == "__main__":
    main()
