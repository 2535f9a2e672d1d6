#!/usr/bin/env python3
"""spill_sass.py SASS > spill_sass.csv - per-iteration instruction counts of the
spill kernels (calibrate/spill.cu) from `cuobjdump -sass`: the main loop is the
backward branch whose body holds the most FFMAs; iterations per loop trip =
FFMAs / live values (ptxas unrolls some loops)."""
import re
import sys

funcs, cur = {}, None
for line in open(sys.argv[1]):
    m = re.search(r'Function : (\S+)', line)
    if m:
        cur = m.group(1)
        funcs[cur] = []
        continue
    m = re.match(r'\s+/\*([0-9a-f]+)\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)(.*)', line)
    if m and cur:
        funcs[cur].append((int(m.group(1), 16), m.group(3).split('.')[0], m.group(4)))
print("variant,live,cap,unroll,ldl_per_iter,stl_per_iter,other_per_iter")
rows = []
for name, ins in funcs.items():
    m = re.match(r'_Z\d+k_v(\d+)(r?)_(\d+)P', name)
    if not m:
        continue
    live, rolled, cap = int(m.group(1)), m.group(2) == 'r', int(m.group(3))
    best = None
    for a, op, rest in ins:
        t = re.search(r'0x([0-9a-f]+)', rest)
        if op == 'BRA' and t and int(t.group(1), 16) < a:
            body = [o for (b, o, _) in ins if int(t.group(1), 16) <= b <= a]
            ff = body.count('FFMA')
            if best is None or ff > best[0]:
                best = (ff, body)
    ff, body = best
    it = ff / live
    ldl, stl = body.count('LDL') / it, body.count('STL') / it
    rows.append(("rolled" if rolled else "unrolled", live, cap, it, ldl, stl,
                 (len(body) - ff - body.count('LDL') - body.count('STL')) / it))
for r in sorted(rows, key=lambda r: (r[0] == "rolled", r[1], -r[2] if r[2] else -999)):
    print("%s,%d,%d,%g,%g,%g,%g" % r)
