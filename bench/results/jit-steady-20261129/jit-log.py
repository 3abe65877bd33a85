# usage: jit-log.py HOTSPOT_LOG SECONDS: compilations per 10 s of a -XX:+LogCompilation log, then the C2 compilations
# after SECONDS: first or repeated, the costliest by compile time, and the uncommon traps after SECONDS.
import re,sys,collections
f=sys.argv[1]
tasks=[]; cur=None
traps=[]; mne=[]
task_re=re.compile(r"<task (.*?)>")
attr=lambda s: dict(re.findall(r"(\w+)='([^']*)'",s))
for line in open(f,errors='replace'):
    if line.startswith('<task '):
        cur=attr(line)
    elif line.startswith('<task_done') and cur is not None:
        d=attr(line); cur['done']=float(d.get('stamp',0)); cur['ok']=d.get('success'); tasks.append(cur); cur=None
    elif line.startswith('<uncommon_trap') and 'reason' in line and 'thread' in line:
        traps.append(attr(line))
    elif line.startswith('<make_not_entrant'):
        mne.append(attr(line))
print(len(tasks),'tasks',len(traps),'traps',len(mne),'not-entrant')
bins=collections.defaultdict(lambda:[0,0.0,0,0.0])
for t in tasks:
    st=float(t['stamp']); lv=t.get('level','?'); b=int(st//10)*10
    i=0 if lv in ('1','2','3') else 2
    bins[b][i]+=1; bins[b][i+1]+=t['done']-st
for b in sorted(bins):
    c1n,c1t,c2n,c2t=bins[b]
    print("%5ds C1 %4d %6.2fs  C2 %4d %6.2fs"%(b,c1n,c1t,c2n,c2t))
print('---- late C2 tasks (after %s s)'%sys.argv[2])
T=float(sys.argv[2])
seen4=collections.Counter(); late=[]
for t in tasks:
    st=float(t['stamp'])
    if t.get('level','4')=='4':
        if st>=T: late.append((t, seen4[t['method']]))
        seen4[t['method']]+=1
first=sum(1 for t,n in late if n==0); print('late C2:',len(late),'first-time:',first,'recompiles:',len(late)-first)
tot=collections.Counter(); cnt=collections.Counter()
for t,n in late:
    tot[(t['method'],n>0)]+=t['done']-float(t['stamp']); cnt[(t['method'],n>0)]+=1
print('top by compile time:')
for (m,r),s in tot.most_common(25): print("%6.3fs x%d %s %s"%(s,cnt[(m,r)],'RE' if r else '1st',m[:130]))
# trap reasons late
tr=collections.Counter((x.get('reason'),x.get('action')) for x in traps if float(x.get('stamp',0))>=T)
print('late traps:',tr.most_common(10))
mm=collections.Counter()
for x in traps:
    if float(x.get('stamp',0))>=T: mm[(x.get('reason'),x.get('method','?')[:100] if 'method' in x else x.get('compile_id'))]+=1
for k,n in mm.most_common(15): print(n,k)
