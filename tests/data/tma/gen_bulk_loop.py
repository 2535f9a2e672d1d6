import re,sys
# gen_bulk_loop.py BYTES INFLIGHT OUT [K_BULK_SASS]: (K_BULK_SASS: zcat tma.sass.gz | sed -n 7986,8566p) a listing of tma.cu k_bulk's steady loop (0x0c40-0x0f70 of
# tma.sass k_bulk), one warp per CTA, bytes as an UMOV constant, the ELECT retry dropped.
b, k, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
src = open(sys.argv[4] if len(sys.argv) > 4 else 'k_bulk.sass').read().splitlines()
ins = []
for i, l in enumerate(src):
    m = re.match(r'\s*/\*([0-9a-f]{4})\*/\s*(.*?)\s*;\s*/\* (0x[0-9a-f]+) \*/', l)
    if m:
        ctrl = re.search(r'/\* (0x[0-9a-f]+) \*/', src[i+1]).group(1)
        ins.append((int(m.group(1), 16), m.group(2), ctrl))
loop = [x for x in ins if 0x0c40 <= x[0] <= 0x0f70]
def ln(off, text, ctrl):
    return "        /*%04x*/ %s ; /* 0x0000000000000000 */\n                              /* %s */\n" % (off, text, ctrl)
o = "\n\tcode for sm_90\n\t\tFunction : k_bulk_%d_%d\n" % (b, k)
pro = [("UMOV UR15, 0x%x" % (b // 16), "0x000fe20000000000")]
blk = [x for x in ins if x[0] == 0x0f00][0]
pro += [(blk[1], blk[2])] * k
base = 0x0c40 - 16 * len(pro)
for j, (t, c) in enumerate(pro):
    o += ln(base + 16 * j, t, c)
for off, t, c in loop:
    if off == 0x0eb0: t = "UMOV UR15, 0x%x" % (b // 16)
    if off in (0x0ee0, 0x0f30, 0x0ef0, 0x0f10, 0x0f20): t = "NOP"
    if off == 0x0d40: t = "@!P0 BRA 0xf80"
    o += ln(off, t, c)
o += ln(0x0f80, "EXIT", "0x000fea0003800000")
sh = base
o = re.sub(r'/\*([0-9a-f]{4})\*/', lambda m: '/*%04x*/' % (int(m.group(1), 16) - sh), o)
o = re.sub(r'BRA (0x[0-9a-f]+)', lambda m: 'BRA 0x%x' % (int(m.group(1), 16) - sh), o)
open(out, 'w').write(o)
