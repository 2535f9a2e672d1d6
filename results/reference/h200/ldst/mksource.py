#!/usr/bin/env python3
"""mksource.py SASS OUTDIR: a source-page-like CSV per k_ldst<K, LVL> function of the listing
(the device call's `--page source` export did not come back: the transfer's file-count limit).
Counts follow from the loop, not from a profile: each of the 1056 x 4 = 4224 warps of the B = 8
probe runs the code before the loop once, the loop body 128 times (iters), the rest once.
LDG: 32 lanes at stride 128 B -> 32 sectors per request; STG.E.128 coalesced: 16 sectors."""
import re, sys, os
sass, out = sys.argv[1], sys.argv[2]
WARPS, TRIPS = 4224, 128
funcs, cur = {}, None
for line in open(sass):
    m = re.search(r'Function : (\S+)', line)
    if m:
        cur = m.group(1); funcs[cur] = []; continue
    m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\*', line)
    if m and cur:
        funcs[cur].append((int(m.group(1), 16), m.group(2).rstrip(' ;')))
hdr = ["Address", "Source", "Instructions Executed", "Address Space", "Access Operation", "Access Size",
       "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal", "L1 Wavefronts Shared"]
for f, ins in funcs.items():
    m = re.match(r'_Z6k_ldstILi(\d)ELi(\d)EE', f)
    if not m: continue
    k, lvl = m.groups()
    # the loop: the backward BRA's target .. the BRA
    lo = hi = None
    for a, s in ins:
        b = re.search(r'BRA (?:`\(\.L_x_\d+\)|)?(0x[0-9a-f]+)', s)
        if s.split()[0].lstrip('@!P0123456789 ').startswith('BRA') or ' BRA ' in s:
            t = re.search(r'(0x[0-9a-f]+)', s)
            if t and int(t.group(1), 16) < a:
                lo, hi = int(t.group(1), 16), a
    assert lo is not None, f
    rows, done = [], False
    for a, s in ins:
        n = 0 if done else (WARPS * TRIPS if lo <= a <= hi else WARPS)
        if s.strip() == "EXIT":
            done = True
        op = s.split()[0] if not s.startswith('@') else s.split()[1]
        space = opn = size = sec = ideal = "-"
        if op.startswith('LDG'):
            space, opn, size, sec, ideal = "Global", "Load", "32", str(32 * n), str(4 * n)
        elif op.startswith('STG'):
            space, opn, size, sec, ideal = "Global", "Store", "128", str(16 * n), str(16 * n)
        rows.append([hex(0x7f0000000000 + a), s, str(n), space, opn, size, sec, ideal, "0"])
    name = f"void k_ldst<{k}, {lvl}>(const char *, char *, unsigned long, float *, Rec *, int)"
    with open(os.path.join(out, f"source_k{k}_l{lvl}.csv"), "w") as o:
        o.write('"Kernel Name","%s",\n' % name)
        o.write(",".join('"%s"' % h for h in hdr) + "\n")
        for r in rows:
            o.write(",".join('"%s"' % c for c in r) + "\n")
    print(f, k, lvl, hex(lo), hex(hi), len(rows))
