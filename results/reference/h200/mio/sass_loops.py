"""sass_loops.py - the opcodes of each timed loop of mio.sass (the longest backward branch
between the two CS2R SR_CLOCKLO of a function), as results/reference/h200/matrix/sass_loops.csv.
Usage: python3 sass_loops.py <(zcat mio.sass.gz) > sass_loops.csv"""
import re,sys,collections
print('function,loop_opcodes')
txt=open(sys.argv[1]).read().split('Function : ')[1:]
for blk in txt:
    name=blk.split('\n')[0].strip()
    ins=[]
    for m in re.finditer(r'/\*([0-9a-f]{4,})\*/\s+([^;]*);',blk):
        ins.append((int(m.group(1),16),m.group(2).strip()))
    clk=[o for o,t in ins if 'SR_CLOCKLO' in t]
    lo,hi=(clk[0],clk[1]) if len(clk)>=2 else (0,1<<30)
    best=None
    for off,t in ins:
        if not (lo<off<hi): continue
        mm=re.search(r'BRA\s+(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))',t)
        if 'BRA' in t:
            tg=re.search(r'0x([0-9a-f]+)',t.split('BRA')[1])
            if tg:
                tgt=int(tg.group(1),16)
                if tgt<off and (best is None or off-tgt>best[1]-best[0]): best=(tgt,off)
    if not best: print('%s,none' % name); continue
    c=collections.Counter()
    for off,t in ins:
        if best[0]<=off<=best[1]:
            t=re.sub(r'^@!?U?P\w+\s+','',t)
            op=t.split()[0]
            c[op]+=1
    print('%s,%s' % (name, ' '.join('%s:%d' % kv for kv in c.most_common())))
