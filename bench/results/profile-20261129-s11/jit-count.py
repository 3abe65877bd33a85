import re,collections,sys
# jitcount.py LOG SECONDS_FROM_END_OF_LOG -> compilations per 5 s bucket
f=sys.argv[1]
c=collections.Counter()
for l in open(f,errors='replace'):
    if l.startswith('<task '):
        s=float(re.search(r"stamp='([\d.]+)'",l).group(1)); lv=re.search(r"level='(\d)'",l); lv=lv.group(1) if lv else '4'
        c[(int(s//5)*5,lv)]+=1
bk=sorted({k[0] for k in c})
for b in bk: print(b, ' '.join('L%s=%d'%(lv,c[(b,lv)]) for lv in '1234'))
