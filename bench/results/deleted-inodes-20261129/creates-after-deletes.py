# usage: creates-after-deletes.py MODE DIR (sixteenth session): creates 100,000 empty files in 20 directories under
# DIR, syncs, deletes them, then times (process CPU) creating 20,000 files in 20 new directories. MODE none starts at
# once; drop runs `sync; echo 3 > /proc/sys/vm/drop_caches` first (root). On ext4 without a journal the inode
# allocator skips inodes freed in the last 60 s (360 s while their inode table block is dirty), reading each one
# (fs/ext4/ialloc.c, recently_deleted), as long as that block is cached.
import os,sys,time,shutil
mode=sys.argv[1]; base=sys.argv[2]
shutil.rmtree(base,ignore_errors=True); os.makedirs(base)
def make(d,n):
    os.makedirs(d,exist_ok=True)
    t=time.process_time()
    for i in range(n):
        os.close(os.open('%s/f%07d'%(d,i),os.O_CREAT|os.O_WRONLY,0o644))
    return time.process_time()-t
for k in range(20): make('%s/old%02d'%(base,k),5000)
os.system('sync')
shutil.rmtree(base); os.makedirs(base)
if mode=='drop': os.system('sync; echo 3 > /proc/sys/vm/drop_caches')
cpu=[make('%s/new%02d'%(base,k),1000) for k in range(20)]
print(mode,base,'20,000 creates: CPU %.2f s; per directory of 1,000:'%sum(cpu),' '.join('%.2f'%c for c in cpu))
shutil.rmtree(base)
