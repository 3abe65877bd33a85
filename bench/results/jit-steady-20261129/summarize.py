# usage: summarize.py FILE[,FILE...] FIRST LAST: per run and load (put16, get16), the means over rounds FIRST..LAST of
# the four JVMs' CPU per request (µs), by process, the compiler threads' part, the rest, and objects per second.
import sys,re,collections,statistics
lo,hi=int(sys.argv[2]),int(sys.argv[3])
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1].split(','):
  for line in open(f):
    m=re.match(r'(\S+) (put16|get16)-(\d+) (.*)',line)
    if not m: continue
    run,op,r,rest=m.group(1),m.group(2),int(m.group(3)),m.group(4)
    if not lo<=r<=hi: continue
    v=dict(re.findall(r'(\w+)=(\d+)us',rest))
    tp=re.findall(r'obj/s=([\d.]+)',rest)[-1]
    for k in ('jvms','coordinator','pod','stash','jit','gc'): d[(run,op)][k].append(int(v[k]))
    d[(run,op)]['nojit'].append(int(v['jvms'])-int(v['jit'])); d[(run,op)]['tput'].append(float(tp))
for (run,op),v in sorted(d.items(),key=lambda x:(x[0][1],x[0][0])):
    print("%-6s %s rounds %d-%d: jvms %6.0f  coord %6.0f  pod %5.0f  stash %5.0f  jit %5.0f  no-jit %6.0f  obj/s %5.1f"%(run,op,lo,hi,*(statistics.mean(v[k]) for k in ('jvms','coordinator','pod','stash','jit','nojit','tput'))))
