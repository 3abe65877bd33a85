# usage: fdatasync-append-vs-overwrite.py MODE COUNT BYTES (MODE: append, over, overcached, falloc): COUNT commits of
# BYTES each (a pwrite, then an fdatasync) to a file in /var/tmp, appended to a fresh file, overwriting blocks
# written beforehand (their pages dropped, or kept cached), or into blocks fallocated beforehand; prints the commit
# latency and the CPU per commit (docs/STASH.md, "Spare segments").
import os, sys, time, resource
mode, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
path = f"/var/tmp/segexp-{mode}-{os.getpid()}.log"
buf = os.urandom(size)
fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
total = n * size
if mode in ("over", "overcached"):
    z = bytes(1 << 20)
    for off in range(0, total, len(z)):
        os.pwrite(fd, z, off)
    os.fsync(fd)
    if mode == "over":
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
if mode == "falloc":
    os.posix_fallocate(fd, 0, total); os.fsync(fd)
lat = []
r0 = resource.getrusage(resource.RUSAGE_SELF)
off = 0
for i in range(n):
    t = time.perf_counter()
    os.pwrite(fd, buf, off); off += size
    os.fdatasync(fd)
    lat.append((time.perf_counter() - t) * 1000)
r1 = resource.getrusage(resource.RUSAGE_SELF)
lat.sort()
cpu = (r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime) * 1e6 / n
print(f"{mode} size={size} n={n} p50={lat[n//2]:.3f} p90={lat[int(n*.9)]:.3f} p99={lat[int(n*.99)]:.3f} mean={sum(lat)/n:.3f} ms, cpu/commit={cpu:.0f}us")
os.close(fd); os.unlink(path)
