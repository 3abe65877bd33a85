#!/usr/bin/env python3
"""Splits CPU profiles of the dev cluster's processes (or of MinIO's) into components, as CPU us per request.

Usage: profile-components.py REQUESTS DIR [DIR2]
DIR holds one '<process>-<pid>.collapsed' file per process, written by bench/profile-cluster.sh
(collapsed stacks with thread names, 'threads' option, one sample per INTERVAL ns of CPU; the interval
is read from DIR/interval), or for MinIO (SYSTEM=minio) by perf and bench/perf-collapse.py. The rules name
the JVM's frames and Go's (MinIO's) alike, so two such profiles compare row by row. With DIR2 (a later
profile of the same load) it prints both columns and the change, as the table in docs/PERFORMANCE.md.
The first rule that matches a sample's stack names its component; the order puts the specific costs (a
digest, a codec, a fsync) before the thread they run on.
When the stacks hold kernel frames (async-profiler gets them with kernel.perf_event_paranoid at 1 or less),
a second table splits each process's CPU by the kind of kernel work (KERNEL), of the first DIR only.
"""
import collections
import os
import re
import sys

# (component, process regex, stack regex); the first match wins.
RULES = [
    ("JIT compiler threads", r".", r"^\[C\d CompilerThre"),
    ("GC", r".", r"^\[(GC Thread|G1 |VM Thread|GC )|runtime\.(gcBgMarkWorker|bgsweep|bgscavenge|gcAssistAlloc)"),
    ("metrics (Micrometer timers and counters)", r".", r"io/micrometer/"),
    ("MD5 of the body (ETag)", r".", r"MD5|md5_impl|/md5\.|md5-simd"),
    ("SHA-256 (aws-chunked signatures, SigV4)", r".", r"SHA2|sha256_impl|/sha256\.|sha256-simd"),
    ("CRC32 / CRC32C of chunks and bodies", r".", r"CRC32|Crc32c|/crc32\."),
    ("HighwayHash (MinIO's bitrot checksums)", r".", r"highwayhash"),
    ("erasure coding (Jerasure; MinIO: reedsolomon)", r".", r"Jerasure4j|gf_complete|jerasure|reedsolomon"),
    ("stripe buffers (allocate, zero)", r".", r"AlignedBuffers|StripeBuffers"),
    ("catalog: Ratis, gRPC, RocksDB apply", r"coordinator",
     r"org/apache/ratis|^\[(grpc-|c\d|catalog-read|null-request|JvmPauseMonitor|timer\d)"),
    ("coordinator: S3 HTTP, SigV4, body (rest)", r"coordinator", r"^\[s\d+-(io|worker)"),
    ("coordinator: shard and stash RPC client (rest)", r"coordinator", r"^\[rpc-io"),
    ("coordinator: data path (rest)", r"coordinator", r"^\[data-path"),
    ("pod: shard file open, create, close", r"pod", r"DirectTomeIo\.open|ChannelFile\.close"),
    ("pod: shard file writes", r"pod", r"ShardFile\.(append|writeHeader|create|writeRecord)"),
    ("pod: flusher (fsync, purge queue append)", r"pod", r"^\[(tome-|flusher)"),
    ("pod: purge sender", r"pod", r"^\[purge-sender"),
    ("pod: RPC I/O and dispatch (rest)", r"pod", r"^\[rpc-"),
    ("stash: RocksDB writes (WAL, memtable, fsync)", r"stash", r"rocksdb"),
    ("stash: RPC I/O and dispatch (rest)", r"stash", r"^\[(rpc-|stash-)"),
]


# (kind of work, stack regex); the first match wins. Kernel frames end in "_[k]".
KERNEL = [
    ("kernel: copying into the page cache (file writes)", r"copy_folio_from_iter|generic_perform_write"),
    ("kernel: socket sends", r"tcp_sendmsg"),
    ("kernel: socket receives", r"tcp_recvmsg|sock_recvmsg"),
    ("kernel: fsync, fdatasync, syncfs", r"__x64_sys_(fsync|fdatasync|syncfs)_"),
    ("kernel: file open, create, close", r"__x64_sys_(openat|close)_"),
    ("kernel: file reads", r"__x64_sys_(pread64|preadv|preadv2|read)_|filemap_read"),
    ("kernel: futex (threads waking threads)", r"__x64_sys_futex_"),
    ("kernel: epoll", r"__x64_sys_epoll"),
    ("kernel: other system calls", r"do_syscall_64_\[k\]"),
    ("kernel: interrupts, softirqs, faults", r"_\[k\]"),
]


USER = "user: Java, the JVM, native libraries"


def samples(directory, requests):
    """Every stack of the directory's profiles: (process, stack, CPU us per request)."""
    interval_ns = int(open(os.path.join(directory, "interval")).read().strip())
    per_sample_us = interval_ns / 1000.0 / requests
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".collapsed"):
            continue
        process = re.sub(r"-\d+\.collapsed$", "", name)
        for line in open(os.path.join(directory, name)):
            stack, _, count = line.rstrip().rpartition(" ")
            yield process, stack, int(count) * per_sample_us


def kernel_split(directory, requests):
    """CPU us per request by kind of kernel work and process; None when no stack has a kernel frame."""
    split = collections.defaultdict(collections.Counter)
    seen_kernel = False
    for process, stack, us in samples(directory, requests):
        kind = next((k for k, rx in KERNEL if re.search(rx, stack)), USER)
        seen_kernel |= kind != USER
        split[kind][process] += us
    return split if seen_kernel else None


def print_kernel_split(split):
    processes = sorted({p for row in split.values() for p in row})
    print("\n| work | " + " | ".join(processes) + " | all |")
    print("| --- |" + " ---: |" * (len(processes) + 1))
    for kind in [k for k, _ in KERNEL] + [USER]:
        row = split.get(kind, collections.Counter())
        print(f"| {kind} | " + " | ".join(f"{row[p]:,.0f}" for p in processes) + f" | {sum(row.values()):,.0f} |")


def load(directory, requests):
    totals = collections.Counter()
    by_process = collections.Counter()
    for process, stack, us in samples(directory, requests):
        by_process[process] += us
        for component, process_rx, stack_rx in RULES:
            if re.search(process_rx, process) and re.search(stack_rx, stack):
                totals[component] += us
                break
        else:
            totals["other (" + re.sub(r"\d+$", "", process) + ")"] += us
    return totals, by_process


def main():
    requests = int(sys.argv[1])
    columns = [load(d, requests) for d in sys.argv[2:]]
    order = [r[0] for r in RULES]
    names = order + sorted({k for t, _ in columns for k in t if k not in order})
    if len(columns) == 1:
        print("| component | CPU us per request |\n| --- | ---: |")
    else:
        print("| component | before, CPU us per request | after | change |\n| --- | ---: | ---: | ---: |")
    for name in names:
        values = [t.get(name, 0.0) for t, _ in columns]
        if all(v < 1 for v in values):
            continue
        cells = " | ".join(f"{v:,.0f}" for v in values)
        if len(values) == 2:
            cells += f" | {values[1] - values[0]:+,.0f}"
        print(f"| {name} | {cells} |")
    sums = [sum(t.values()) for t, _ in columns]
    cells = " | ".join(f"**{v:,.0f}**" for v in sums)
    if len(sums) == 2:
        cells += f" | {sums[1] - sums[0]:+,.0f}"
    print(f"| **all processes** | {cells} |")
    for process in sorted({p for _, b in columns for p in b}):
        cells = " | ".join(f"{b.get(process, 0.0):,.0f}" for _, b in columns)
        if len(columns) == 2:
            cells += f" | {columns[1][1].get(process, 0.0) - columns[0][1].get(process, 0.0):+,.0f}"
        print(f"| of which {process} | {cells} |")
    split = kernel_split(sys.argv[2], requests)
    if split is not None:
        print_kernel_split(split)


if __name__ == "__main__":
    main()
